export * from './workflows.module.js';
export * from './consumer.js';
