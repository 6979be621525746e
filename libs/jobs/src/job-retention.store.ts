import { tableName } from '@herald/persistence';
import type { DataSource } from 'typeorm';
import { Job } from './job.entity.js';

/**
 * The delete of finished jobs past retention, a batch a statement: the rows' addresses are picked
 * first (`LIMIT`), then deleted by address (a TID scan) with the condition checked again on the row
 * deleted, so a job retried meanwhile (back to `queued`) stays. A job's age is counted from its
 * last change (`updated_at`, the end of its last attempt), on the database's clock.
 */
export class JobRetentionStore {
  /** Deletes at most `limit` jobs in one of `states` whose last change is more than `retentionMs` old. */
  async pruneFinished(db: DataSource, states: readonly string[], retentionMs: number, limit: number): Promise<number> {
    const table = tableName(db, Job);
    const [, n] = (await db.query(
      `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM ${table}
          WHERE state = ANY($1::varchar[]) AND updated_at < now() - $2::bigint * interval '1 millisecond' LIMIT $3))
         AND state = ANY($1::varchar[]) AND updated_at < now() - $2::bigint * interval '1 millisecond'`,
      [states, retentionMs, limit],
    )) as [unknown, number];
    return n;
  }
}
