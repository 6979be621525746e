export * from './sending.module.js';
export * from './consumer.js';
