import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { DataSource, EntityManager } from 'typeorm';

/** Distinct statement texts given a name; past this many, further texts run unnamed (a caller building texts from values must not fill every connection with them). */
const MAX_NAMED = 256;
const names = new Map<string, string>();

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `herald_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs `text` outside any transaction as a named prepared statement on one of `db`'s pooled
 * connections. PostgreSQL parses it once per connection and, after a few executions, keeps a
 * generic plan: a hot statement is no longer parsed and planned at every call (planning was about a
 * seventh of PostgreSQL's time on the /v1/track write, half on its read and most of it on the API
 * key lookup), and only its name and values travel. Meant for statements whose text comes from a
 * small fixed set, with what varies in parameters (see MAX_NAMED for texts that do not).
 *
 * Errors are pg's own (`code` is the SQLSTATE), not TypeORM's `QueryFailedError`.
 */
export async function queryPrepared<T = Record<string, unknown>>(
  db: DataSource,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const pool = pgPool(db);
  const name = nameOf(text);
  const result = await pool.query<T & pg.QueryResultRow>(name ? { name, text, values } : { text, values });
  return result.rows;
}

/**
 * The pg Pool under a TypeORM DataSource on PostgreSQL (its `master`: Herald configures no
 * replication), for the few paths that talk to pg directly (prepared statements, several
 * statements in one message).
 */
export function pgPool(db: DataSource): pg.Pool {
  return (db.driver as unknown as { master: pg.Pool }).master;
}

/**
 * `queryPrepared` inside a transaction: a function running a statement on the connection of the
 * transaction `m` runs in (as `m.query`), as a named prepared statement, so that PostgreSQL parses a
 * text once per connection and, after a few executions, keeps its generic plan. Its names come from
 * a registry of its own of at most `max` texts (past them, further texts run unnamed): statements
 * built per tenant (one project's filters) neither take the names of the process's fixed hot
 * statements nor hold more than `max` plans per connection. Without a transaction, `m.query`.
 *
 * Errors are pg's own (`code` is the SQLSTATE), not TypeORM's `QueryFailedError`.
 */
export function preparedInTransaction(
  max: number,
): <T = Record<string, unknown>>(m: EntityManager, text: string, values: unknown[]) => Promise<T[]> {
  const own = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = own.get(text);
    if (name === undefined && own.size < max) {
      name = `herald_tx_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      own.set(text, name);
    }
    return name;
  };
  return async <T>(m: EntityManager, text: string, values: unknown[]): Promise<T[]> => {
    const client = (m.queryRunner as { databaseConnection?: pg.PoolClient } | undefined)?.databaseConnection;
    if (!client || !m.queryRunner?.isTransactionActive) return m.query<T[]>(text, values);
    const name = nameOf(text);
    const result = await client.query<T & pg.QueryResultRow>(name ? { name, text, values } : { text, values });
    return result.rows;
  };
}
