export * from './domains.module.js';
export * from './consumer.js';
