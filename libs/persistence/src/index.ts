export * from './service-data-source.js';
export * from './persistence.module.js';
export * from './embedded/index.js';
export * from './table-name.js';
export * from './pg-notifications.js';
export * from './single-statement-write.js';
export * from './prepared-query.js';
export { TableStatistics } from './table-statistics.js';
