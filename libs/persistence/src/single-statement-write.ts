import type { DataSource } from 'typeorm';
import { NO_FLUSH_WAIT, type CommitOptions } from './commit-durability.js';
import { queryPrepared } from './prepared-query.js';

/**
 * The rows a write was computed from changed before it ran (a guard did not hold, or PostgreSQL
 * reported a serialization failure or a deadlock): nothing was written. Compute it again from
 * fresh rows, or take the locking path.
 */
export class WriteConflict extends Error {
  constructor(reason: string) {
    super(`write conflict: ${reason}`);
  }
}

/** Builds a bind parameter: answers `$n::type` and keeps `value` for the statement. */
export type SqlParam = (value: unknown, type: string) => string;

/**
 * A batch of rows (or any JSON value) as one `jsonb` parameter, for `jsonb_to_recordset` or
 * `jsonb_array_elements`: one string to send. An array parameter per column has pg escape every
 * element of a text array quote by quote, and batched rows are mostly JSON full of quotes.
 */
export const jsonParam = (param: SqlParam, value: unknown): string => param(JSON.stringify(value), 'jsonb');

/** Bind parameters collected while a statement is built (`values` go with its text). */
export class SqlParams {
  readonly values: unknown[] = [];
  readonly param: SqlParam = (value, type) => `$${this.values.push(value)}::${type}`;
}

/** SQLSTATEs after which the same write may simply be attempted again: serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * One write made of several data-modifying CTEs sent as a single statement, so that it commits or
 * fails as a whole without an explicit transaction: one round trip instead of BEGIN, one per part
 * and COMMIT. Parts are computed from rows read beforehand without locks (optimistic concurrency):
 * each part adds guards, conditions over the CTEs' RETURNING rows (for instance "every expected row
 * was updated"), that `guardFunction` checks after every part has run; a guard that does not hold
 * raises inside the statement, so none of its parts is kept, and `run` throws `WriteConflict`.
 *
 * `guardFunction` is the schema's `(ok boolean) RETURNS boolean` that raises serialization_failure
 * when `ok` is not true (each service that uses this creates its own in a migration).
 *
 * All CTEs see the same snapshot and none sees the others' rows (PostgreSQL's rule for WITH), so
 * parts must touch different rows; each is executed exactly once, whether or not it is read.
 */
export class SingleStatementWrite {
  private readonly params = new SqlParams();
  private readonly ctes: string[] = [];
  private readonly guards: string[] = [];
  private readonly outputs: { expression: string; onCommit?: (value: unknown) => void }[] = [];
  private readonly afterCommit: (() => void)[] = [];
  private names = 0;

  constructor(private readonly guardFunction: string) {}

  /** A bind parameter (`$n::type`) for `value`; may be passed around on its own. */
  readonly param: SqlParam = this.params.param;

  /** Adds a CTE; answers its name, unique in the statement, to read its RETURNING rows in guards and outputs. */
  with(prefix: string, sql: string): string {
    const name = `${prefix}_${++this.names}`;
    this.ctes.push(`${name} AS (${sql})`);
    return name;
  }

  /** A condition that must hold once every part has run, else nothing is written. */
  guard(condition: string): void {
    this.guards.push(`(${condition})`);
  }

  /**
   * An expression evaluated once, beside the guard (e.g. `pg_notify`, whose notification is only
   * sent if the statement commits); its value goes to `onCommit` once the statement committed, or
   * is discarded.
   */
  output(expression: string, onCommit?: (value: unknown) => void): void {
    this.outputs.push(onCommit ? { expression, onCommit } : { expression });
  }

  /** Called after the statement committed (caches that must only learn what was written). */
  onCommit(fn: () => void): void {
    this.afterCommit.push(fn);
  }

  /** The statement; `flushWait: false` adds `NO_FLUSH_WAIT` to its outputs. */
  toSql(options: CommitOptions = {}): string {
    const guard = `${this.guardFunction}(${this.guards.length > 0 ? this.guards.join(' AND ') : 'true'})`;
    const select = [
      `${guard} AS ok`,
      ...this.outputs.map((o, i) => `${o.expression} AS out_${i + 1}`),
      ...(options.flushWait === false ? [`${NO_FLUSH_WAIT} AS no_flush_wait`] : []),
    ].join(', ');
    return this.ctes.length > 0 ? `WITH ${this.ctes.join(',\n')}\nSELECT ${select}` : `SELECT ${select}`;
  }

  /**
   * Runs the statement on its own, outside any transaction (it is its own), as a prepared statement
   * (`queryPrepared`): guards and parts must put what varies from one write to the next in
   * parameters, so that the same shape of write is the same text. `flushWait: false`: its commit
   * does not wait for the disk, for a caller whose durable commit on the same server follows.
   */
  async run(db: DataSource, options: CommitOptions = {}): Promise<void> {
    if (this.ctes.length === 0) return; // nothing to write
    let row: Record<string, unknown> | undefined;
    try {
      [row] = await queryPrepared(db, this.toSql(options), this.params.values);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code && RETRYABLE.has(code)) throw new WriteConflict((err as Error).message);
      throw err;
    }
    this.outputs.forEach((o, i) => o.onCommit?.(row?.[`out_${i + 1}`]));
    for (const fn of this.afterCommit) fn();
  }
}
