import { createLogger } from '@herald/core';
import type { DataSource } from 'typeorm';

const log = createLogger('persistence.statistics');

/** A table is analysed again once this many rows changed since its last analyze, plus a share of its rows. */
const CHANGED_ROWS = 500;

/**
 * The shares of a table's rows (at its last analyze) that must have changed since:
 * - `outgrown`, the whole table, at every tick whatever the server does: a table growing from nothing
 *   or twofold, which autovacuum (a minute between visits) would leave planned as what it was;
 * - `tenth`, autovacuum's own rule, when the service is the only one analysing (`autovacuum = off`),
 *   at most once per `RESTED_MS` per table, as autovacuum's launcher visits a database once per
 *   `autovacuum_naptime`: a table whose rows change several times each (sending's emails, four
 *   times) was analysed at every tick while it had fewer than about ten ticks' changes, 280 ms
 *   each, 20.9 s of a campaign's 60.8 s of statement time.
 */
export const ANALYSED_SHARE = { outgrown: 1, tenth: 0.1 } as const;

/** Autovacuum's default `autovacuum_naptime`: the least time between two analyses of a table at a tenth. */
export const RESTED_MS = 60_000;

export interface TableStatisticsOptions {
  /** How often the tables are looked at (default 5 s). */
  intervalMs?: number;
  /** Whether the service is the only one analysing; `start` sets it from the server's `autovacuum`. */
  alone?: boolean;
  /** The least time since a table's last analyze before it is analysed at a tenth (default `RESTED_MS`). */
  restedMs?: number;
}

/**
 * Keeps the planner's statistics of a service's tables current. A plan made on statistics from when
 * a table was empty treats 100,000 rows as one (a nested loop over every row of a join, or a probe
 * of one contact's records through the index of a whole project's: seconds per statement). Every
 * `intervalMs` the service analyses its own tables changed since their last analyze by more than
 * 500 rows plus a share of the rows they had then (`ANALYSED_SHARE`):
 * - the whole table, whatever the server does: autovacuum's launcher visits a database once per
 *   `autovacuum_naptime` (a minute by default) and works through the tables one at a time, so a
 *   table that grows from nothing under load (a new installation, a new project's first import) is
 *   planned as empty for a minute or more. segments drained a backlog at 591 events/s on such
 *   statistics and at 2,943/s on current ones. Analysing at every tenth as well cost the services
 *   about 8.5 s of PostgreSQL time in a 20 s run of 2,500 tracked events a second, beside
 *   autovacuum doing the same;
 * - with `autovacuum = off` nothing else ever analyses them: also a tenth, autovacuum's own rule
 *   with its default threshold raised, no sooner than `restedMs` after the table's last analyze (a
 *   warning at start says that vacuum is left to the operator who turned it off).
 * A table analysed here has nothing left for autovacuum's analyze to do until it changes again.
 */
export class TableStatistics {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly intervalMs: number;
  private readonly restedMs: number;
  private alone: boolean;

  constructor(
    private readonly db: DataSource,
    private readonly schema: string,
    options: TableStatisticsOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 5_000;
    this.restedMs = options.restedMs ?? RESTED_MS;
    this.alone = options.alone ?? true;
  }

  async start(): Promise<void> {
    const [{ autovacuum }] = await this.db.query<{ autovacuum: string }[]>(
      `SELECT current_setting('autovacuum') AS autovacuum`,
    );
    this.alone = autovacuum !== 'on';
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
    // reltuples: the rows at the last analyze or vacuum (-1 before any); a table never analysed has
    // no last analyze, and is over its tenth's rest
    const tables = await this.db.query<{ relname: string }[]>(
      `SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
        WHERE s.schemaname = $1
          AND (s.n_mod_since_analyze > $2 + $3 * GREATEST(c.reltuples, 0)
               OR ($5::boolean AND s.n_mod_since_analyze > $2 + $4 * GREATEST(c.reltuples, 0)
                   AND COALESCE(GREATEST(s.last_analyze, s.last_autoanalyze), '-infinity')
                       <= now() - $6::int * interval '1 millisecond'))
        ORDER BY s.relname`,
      [this.schema, CHANGED_ROWS, ANALYSED_SHARE.outgrown, ANALYSED_SHARE.tenth, this.alone, this.restedMs],
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
