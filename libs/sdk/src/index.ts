/**
 * @herald/sdk: Herald's TypeScript client, typed from its OpenAPI document (ADR 0022). No runtime
 * dependency besides the platform's `fetch`.
 */
export { Herald, type BatchOptions, type CursorListPath, type IdempotentOptions } from './herald.js';
export { HeraldError, type HeraldFieldError } from './errors.js';
export {
  type HeraldConnectionOptions,
  type HeraldOptions,
  type KeyAuth,
  type SessionAuth,
  retryAfterMs,
} from './transport.js';
export { collect, iterateCursor, iteratePages, type CursorPage, type NumberedPage } from './pagination.js';
export type * from './types.js';
