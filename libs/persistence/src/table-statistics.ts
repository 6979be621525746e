import { createLogger } from '@herald/core';
import type { DataSource } from 'typeorm';

const log = createLogger('persistence.statistics');

/** A table is analysed again once this many rows changed since its last analyze, plus a tenth of its rows. */
const CHANGED_ROWS = 500;

/**
 * Keeps the planner's statistics of a service's tables current when the server does not:
 * PostgreSQL with `autovacuum = off` never analyses a table, and a plan made on statistics from when
 * the table was empty treats 100,000 rows as one (a nested loop over every row of a join, seconds
 * per statement). On such a server, every `intervalMs` the service analyses its own tables that
 * changed by more than 500 rows plus a tenth since their last analyze (autovacuum's own rule, with
 * its default threshold raised). With autovacuum on, it does nothing. Vacuuming is left to the
 * operator who turned autovacuum off; a warning at start says so.
 */
export class TableStatistics {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly db: DataSource,
    private readonly schema: string,
    private readonly intervalMs = 15_000,
  ) {}

  async start(): Promise<void> {
    const [{ autovacuum }] = await this.db.query<{ autovacuum: string }[]>(
      `SELECT current_setting('autovacuum') AS autovacuum`,
    );
    if (autovacuum === 'on') return;
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
    const tables = await this.db.query<{ relname: string }[]>(
      `SELECT relname FROM pg_stat_user_tables
        WHERE schemaname = $1 AND n_mod_since_analyze > $2 + 0.1 * n_live_tup ORDER BY relname`,
      [this.schema, CHANGED_ROWS],
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
