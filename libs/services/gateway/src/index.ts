export * from './gateway.module.js';
export * from './consumer.js';
