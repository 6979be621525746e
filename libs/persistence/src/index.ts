export * from './service-data-source.js';
export * from './persistence.module.js';
export * from './embedded/index.js';
export * from './table-name.js';
export * from './pg-notifications.js';
export * from './connection-watchdog.js';
export * from './single-statement-write.js';
export * from './commit-durability.js';
export * from './prepared-query.js';
export { TableStatistics } from './table-statistics.js';
export { Retention, pruneInBatches, retentionDeleted, type RetentionTask } from './retention/retention.js';
export { RetentionModule, retentionToken, InjectRetention } from './retention/retention.module.js';
export { tableSizeMetrics } from './retention/table-sizes.js';
export { TableSizesStore, type TableSize } from './retention/table-sizes.store.js';
export { IdempotencyKey } from './idempotency/idempotency-key.entity.js';
export { IdempotencyKeysStore, type KeptRequest } from './idempotency/idempotency-keys.store.js';
export {
  IdempotentRequests,
  idempotencyKeyOf,
  idempotencyKeysRetention,
  requestFingerprint,
  IDEMPOTENCY_KEY_IN_USE,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_REUSED,
} from './idempotency/idempotent-requests.js';
