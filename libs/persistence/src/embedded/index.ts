export { startEmbeddedPostgres } from './embedded-postgres.js';
export type { EmbeddedPostgresHandle, EmbeddedPostgresOptions } from './embedded-postgres.js';
