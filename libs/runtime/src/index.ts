export * from './root-module.js';
export * from './shutdown.js';
export * from './run-service.js';
export * from './run-standalone.js';
