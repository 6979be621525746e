export * from './data-patch.js';
export * from './field-types.js';
export * from './csv-values.js';
export * from './email.js';
export * from './event-names.js';
export * from './data-limits.js';
export * from './upsert-outcome.js';
