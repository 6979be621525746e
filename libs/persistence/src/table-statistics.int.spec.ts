import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import { DataSource } from 'typeorm';
import { TableStatistics } from './table-statistics.js';

/**
 * TableStatistics on PostgreSQL: a service's table changed by more than its threshold since its last
 * analyze is analysed (the planner then sees its rows), one changed by less is not, and another
 * schema's tables are never touched.
 */
describe('TableStatistics (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource({ type: 'postgres', url: db.url, extra: { max: 2 } }).initialize();
    for (const schema of ['svc', 'other']) {
      await ds.query(`CREATE SCHEMA ${schema}`);
      // autovacuum off on these tables whatever the server does: the test decides when they are analysed
      for (const table of ['big', 'small'])
        await ds.query(`CREATE TABLE ${schema}.${table} (id int) WITH (autovacuum_enabled = false)`);
    }
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const estimate = async (table: string) =>
    Number(
      (await ds.query<{ n: number }[]>(`SELECT reltuples AS n FROM pg_class WHERE oid = $1::regclass`, [table]))[0]!.n,
    );

  it('analyses the tables of its schema that changed by more than 500 rows plus a tenth of what they had, and only those', async () => {
    await ds.transaction(async (m) => {
      await m.query(`INSERT INTO svc.big SELECT generate_series(1, 5000)`);
      await m.query(`INSERT INTO svc.small SELECT generate_series(1, 100)`);
      await m.query(`INSERT INTO other.big SELECT generate_series(1, 5000)`);
    });
    // the server publishes a session's table counters at most once a second
    await eventually(async () => {
      const [r] = await ds.query<{ n: string }[]>(
        `SELECT n_mod_since_analyze AS n FROM pg_stat_user_tables WHERE schemaname = 'svc' AND relname = 'big'`,
      );
      return Number(r?.n) >= 5000 || undefined;
    });
    const statistics = new TableStatistics(ds, 'svc', { alone: true });
    expect(await statistics.analyseChanged()).toEqual(['big']);
    expect(await estimate('svc.big')).toBe(5000);
    expect(await estimate('svc.small')).toBeLessThan(100);
    expect(await estimate('other.big')).toBeLessThan(5000);
    await eventually(async () => ((await statistics.analyseChanged()).length === 0 ? true : undefined));
  });

  const modified = async (table: string) => {
    const [r] = await ds.query<{ n: string }[]>(
      `SELECT n_mod_since_analyze AS n FROM pg_stat_user_tables WHERE schemaname = 'svc' AND relname = $1`,
      [table],
    );
    return Number(r?.n);
  };
  /** Inserts `rows`, and waits until the server's counters show them (published at most once a second). */
  const grow = async (table: string, rows: number) => {
    const before = await modified(table);
    await ds.query(`INSERT INTO svc.${table} SELECT generate_series(1, $1::int)`, [rows]);
    await eventually(async () => ((await modified(table)) >= before + rows ? true : undefined));
  };

  it('beside autovacuum, analyses only a table that outgrew the rows it had at its last analyze; alone, at a tenth', async () => {
    await ds.query(`CREATE TABLE svc.grown (id int) WITH (autovacuum_enabled = false)`);
    await grow('grown', 5000);
    await ds.query(`ANALYZE svc.grown`);
    const beside = new TableStatistics(ds, 'svc', { alone: false });
    const alone = new TableStatistics(ds, 'svc', { alone: true, restedMs: 0 });
    await grow('grown', 3000); // 3,000 changed of 5,000: over 500 + a tenth, not over 500 + the whole
    expect(await beside.analyseChanged()).toEqual([]);
    await grow('grown', 3000); // 6,000 changed: over 500 + 5,000
    expect(await beside.analyseChanged()).toEqual(['grown']);
    expect(await estimate('svc.grown')).toBe(11000);
    await grow('grown', 2000); // 2,000 of 11,000: over 500 + a tenth only
    expect(await beside.analyseChanged()).toEqual([]);
    expect(await alone.analyseChanged()).toEqual(['grown']);
  });

  it('alone, analyses a table at a tenth no sooner than its rest after its last analyze, but an outgrown one at once', async () => {
    await ds.query(`CREATE TABLE svc.busy (id int) WITH (autovacuum_enabled = false)`);
    await grow('busy', 5000);
    await ds.query(`ANALYZE svc.busy`);
    const rested = new TableStatistics(ds, 'svc', { alone: true, restedMs: 60_000 });
    // 2,000 of 5,000 changed, updates as a busy queue makes them: over 500 + a tenth, analysed a moment ago
    await ds.query(`UPDATE svc.busy SET id = id + 1 WHERE id <= 2000`);
    await eventually(async () => ((await modified('busy')) >= 2000 ? true : undefined));
    expect(await rested.analyseChanged()).toEqual([]);
    expect(await new TableStatistics(ds, 'svc', { alone: true, restedMs: 0 }).analyseChanged()).toEqual(['busy']);
    // 6,000 more rows: over 500 + the whole table, analysed whatever its rest
    await grow('busy', 6000);
    expect(await rested.analyseChanged()).toEqual(['busy']);
    expect(await estimate('svc.busy')).toBe(11000);
  });
});
