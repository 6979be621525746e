import { createLogger } from '@herald/core';
import type { DataSource } from 'typeorm';

const log = createLogger('persistence.statistics');

/** A table is analysed again once this many rows changed since its last analyze, plus a share of its rows. */
const CHANGED_ROWS = 500;

/**
 * The share of a table's rows (at its last analyze) that must have changed since: a tenth when the
 * service is the only one analysing (autovacuum's own rule); the whole table when autovacuum also
 * runs (it keeps the tenth within its nap, and the service catches only what it is too slow for: a
 * table outgrowing its statistics, from nothing or twofold).
 */
export const ANALYSED_SHARE = { alone: 0.1, besideAutovacuum: 1 } as const;

/**
 * Keeps the planner's statistics of a service's tables current. A plan made on statistics from when
 * a table was empty treats 100,000 rows as one (a nested loop over every row of a join, or a probe
 * of one contact's records through the index of a whole project's: seconds per statement). Every
 * `intervalMs` the service analyses its own tables changed since their last analyze by more than
 * 500 rows plus a share of the rows they had then (`ANALYSED_SHARE`), whatever the server does:
 * - with `autovacuum = off` nothing else ever analyses them: a tenth, autovacuum's own rule with its
 *   default threshold raised (a warning at start says that vacuum is left to the operator who
 *   turned it off);
 * - with autovacuum on, its launcher visits a database once per `autovacuum_naptime` (a minute by
 *   default) and works through the tables one at a time: a table that grows from nothing under load
 *   (a new installation, a new project's first import) is planned as empty for a minute or more.
 *   segments drained a backlog at 591 events/s on such statistics and at 2,943/s on current ones.
 *   The whole table: analysing at every tenth as well cost the services about 8.5 s of PostgreSQL
 *   time in a 20 s run of 2,500 tracked events a second, beside autovacuum doing the same.
 * A table analysed here has nothing left for autovacuum's analyze to do until it changes again.
 */
export class TableStatistics {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly db: DataSource,
    private readonly schema: string,
    private readonly intervalMs = 5_000,
    /** Set by `start` from the server's `autovacuum`. */
    private share: number = ANALYSED_SHARE.alone,
  ) {}

  async start(): Promise<void> {
    const [{ autovacuum }] = await this.db.query<{ autovacuum: string }[]>(
      `SELECT current_setting('autovacuum') AS autovacuum`,
    );
    this.share = autovacuum === 'on' ? ANALYSED_SHARE.besideAutovacuum : ANALYSED_SHARE.alone;
    if (autovacuum !== 'on')
      log.warn('autovacuum is off on this PostgreSQL server: the service analyses its own tables; vacuum is yours', {
        schema: this.schema,
      });
    this.timer = setInterval(() => {
      this.running ??= this.analyseChanged()
        .then(() => undefined)
        .catch((err: Error) => log.warn('analysing tables failed', { schema: this.schema, error: err.message }))
        .finally(() => (this.running = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Analyses the schema's tables changed enough since their last analyze; answers their names. */
  async analyseChanged(): Promise<string[]> {
    // reltuples: the rows at the last analyze or vacuum (-1 before any)
    const tables = await this.db.query<{ relname: string }[]>(
      `SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
        WHERE s.schemaname = $1 AND s.n_mod_since_analyze > $2 + $3 * GREATEST(c.reltuples, 0) ORDER BY s.relname`,
      [this.schema, CHANGED_ROWS, this.share],
    );
    for (const { relname } of tables) await this.db.query(`ANALYZE ${quoteIdent(this.schema)}.${quoteIdent(relname)}`);
    return tables.map((t) => t.relname);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
