import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Names of prepared statements: one per distinct text, up to `max` texts; past them a text has none
 * and runs unnamed (a caller building texts from values must not fill every connection with them).
 */
class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(
    private readonly prefix: string,
    private readonly max: number,
  ) {}

  of(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) {
      name = `${this.prefix}${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      this.names.set(text, name);
    }
    return name;
  }
}

/** Distinct statement texts `queryPrepared` names (see StatementNames). */
const MAX_NAMED = 256;
const fixedNames = new StatementNames('herald_', MAX_NAMED);

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
  const name = fixedNames.of(text);
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
  const names = new StatementNames('herald_tx_', max);
  return async <T>(m: EntityManager, text: string, values: unknown[]): Promise<T[]> => {
    const client = (m.queryRunner as { databaseConnection?: pg.PoolClient } | undefined)?.databaseConnection;
    if (!client || !m.queryRunner?.isTransactionActive) return m.query<T[]>(text, values);
    const name = names.of(text);
    const result = await client.query<T & pg.QueryResultRow>(name ? { name, text, values } : { text, values });
    return result.rows;
  };
}
