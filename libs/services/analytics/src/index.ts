export * from './analytics.module.js';
export * from './consumer.js';
