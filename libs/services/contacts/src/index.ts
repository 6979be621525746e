export * from './contacts.module.js';
export * from './consumer.js';
