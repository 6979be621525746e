export * from './campaigns.module.js';
export * from './consumer.js';
