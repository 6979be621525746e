import { tableName } from '@herald/persistence';
import type { DataSource } from 'typeorm';
import { DeadLetter } from '../entities/dead-letter.entity.js';
import { InboxEntry } from '../entities/inbox-entry.entity.js';

/**
 * The deletes of messaging's bookkeeping past retention, a batch a statement: the rows' addresses
 * are picked first (`LIMIT`), then deleted by address (a TID scan), the condition checked again on
 * the row deleted. Ages are measured on the database's clock, the one that stamped the rows.
 */
export class MessagingRetentionStore {
  /** Deletes at most `limit` inbox entries applied more than `retentionMs` ago (the `processed_at` index finds them). */
  async pruneInbox(db: DataSource, retentionMs: number, limit: number): Promise<number> {
    const table = tableName(db, InboxEntry);
    return deleted(
      await db.query(
        `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM ${table} WHERE processed_at < now() - $1::bigint * interval '1 millisecond' LIMIT $2))
           AND processed_at < now() - $1::bigint * interval '1 millisecond'`,
        [retentionMs, limit],
      ),
    );
  }

  /** Deletes at most `limit` dead letters recorded more than `retentionMs` ago (a small table: no index needed). */
  async pruneDeadLetters(db: DataSource, retentionMs: number, limit: number): Promise<number> {
    const table = tableName(db, DeadLetter);
    return deleted(
      await db.query(
        `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM ${table} WHERE created_at < now() - $1::bigint * interval '1 millisecond' LIMIT $2))
           AND created_at < now() - $1::bigint * interval '1 millisecond'`,
        [retentionMs, limit],
      ),
    );
  }
}

/** TypeORM answers a DELETE's raw query as `[rows, affected]`. */
export function deleted(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}
