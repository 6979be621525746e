export * from './segments.module.js';
export * from './consumer.js';
