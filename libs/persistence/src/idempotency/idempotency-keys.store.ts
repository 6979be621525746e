import type { DataSource } from 'typeorm';
import { tableName } from '../table-name.js';
import { IdempotencyKey } from './idempotency-key.entity.js';

/** A key's row as an earlier request left it: the hash of its body, and its answer once it has one. */
export interface KeptRequest<R> {
  requestHash: string;
  response: R | null;
}

/**
 * The SQL of an Idempotency-Key (Stripe's semantics, docs/sending.md; `IdempotentRequests` runs a
 * request under it): a key is claimed by the first request that uses it, or taken over once its row
 * is older than 24 hours; its answer is kept for the requests that repeat it; a request that failed
 * gives its key back. The table is the service's own: the data source's schema holds it.
 */
export class IdempotencyKeysStore {
  /** Whether this request claimed the key (a new key, or one remembered for more than 24 hours). */
  async claim(db: DataSource, projectId: string, key: string, requestHash: string): Promise<boolean> {
    const table = tableName(db, IdempotencyKey);
    const claimed: unknown[] = await db.query(
      `INSERT INTO ${table} (project_id, key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT (project_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, response = NULL, created_at = now()
         WHERE ${table}.created_at < now() - interval '24 hours'
       RETURNING key`,
      [projectId, key, requestHash],
    );
    return claimed.length > 0;
  }

  /** The key's row as another request left it; undefined when it was given back meanwhile. */
  async kept<R>(db: DataSource, projectId: string, key: string): Promise<KeptRequest<R> | undefined> {
    const [row] = (await db.query(
      `SELECT request_hash, response FROM ${tableName(db, IdempotencyKey)} WHERE project_id = $1 AND key = $2`,
      [projectId, key],
    )) as { request_hash: string; response: R | null }[];
    return row && { requestHash: row.request_hash, response: row.response };
  }

  /** Keeps the answer of the request that claimed the key. */
  async answer(db: DataSource, projectId: string, key: string, response: unknown): Promise<void> {
    await db.query(`UPDATE ${tableName(db, IdempotencyKey)} SET response = $3 WHERE project_id = $1 AND key = $2`, [
      projectId,
      key,
      JSON.stringify(response),
    ]);
  }

  /**
   * Deletes at most `limit` keys older than 25 hours: a key older than 24 hours is taken over by the
   * next request that uses it (`claim`), so a row past that is never read again; the extra hour
   * keeps a request claiming near the cut from meeting the delete. No index on `created_at`: a
   * batch reads the table until it found `limit` rows, and the table holds about a day of keys.
   */
  async pruneExpired(db: DataSource, limit: number): Promise<number> {
    const table = tableName(db, IdempotencyKey);
    const [, n] = (await db.query(
      `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM ${table} WHERE created_at < now() - interval '25 hours' LIMIT $1))
         AND created_at < now() - interval '25 hours'`,
      [limit],
    )) as [unknown, number];
    return n;
  }

  /** Gives the key back: the request that claimed it failed, so a retry runs it again. */
  async release(db: DataSource, projectId: string, key: string): Promise<void> {
    await db.query(`DELETE FROM ${tableName(db, IdempotencyKey)} WHERE project_id = $1 AND key = $2`, [projectId, key]);
  }
}
