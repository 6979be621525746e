import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { NO_FLUSH_WAIT } from './commit-durability.js';
import { SingleStatementWrite, WriteConflict } from './single-statement-write.js';

const GUARD = 'sswtest.write_guard';

describe('SingleStatementWrite (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    await ds.query('CREATE SCHEMA sswtest');
    await ds.query('CREATE TABLE sswtest.a (id int PRIMARY KEY)');
    await ds.query('CREATE TABLE sswtest.b (id int PRIMARY KEY)');
    // the same function the services' migrations create
    await ds.query(`CREATE FUNCTION ${GUARD}(ok boolean) RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN
        IF ok IS NOT TRUE THEN RAISE EXCEPTION 'rows changed since the write was computed' USING ERRCODE = 'serialization_failure'; END IF;
        RETURN true;
      END $$`);
  });
  afterEach(() => ds.query('TRUNCATE sswtest.a, sswtest.b'));
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const ids = async (table: string) =>
    ((await ds.query(`SELECT id FROM sswtest.${table} ORDER BY id`)) as { id: number }[]).map((r) => r.id);
  const twoInserts = (expectedInA: number) => {
    const write = new SingleStatementWrite(GUARD);
    const a = write.with(
      'a',
      `INSERT INTO sswtest.a SELECT unnest(${write.param([1, 2], 'int[]')}) ON CONFLICT DO NOTHING RETURNING 1`,
    );
    write.with('b', `INSERT INTO sswtest.b VALUES (${write.param(7, 'int')})`);
    write.guard(`(SELECT count(*) FROM ${a}) = ${expectedInA}`);
    return write;
  };

  it('commits every part when the guards hold, then runs the on-commit callbacks', async () => {
    const write = twoInserts(2);
    let committed = false;
    write.onCommit(() => (committed = true));
    await write.run(ds);
    expect(await ids('a')).toEqual([1, 2]);
    expect(await ids('b')).toEqual([7]);
    expect(committed).toBe(true);
  });

  it('a guard that does not hold keeps none of the parts (even those that ran) and throws WriteConflict', async () => {
    await ds.query('INSERT INTO sswtest.a VALUES (2)'); // another writer got there first: only one of the two rows is inserted
    const write = twoInserts(2);
    let committed = false;
    write.onCommit(() => (committed = true));
    await expect(write.run(ds)).rejects.toBeInstanceOf(WriteConflict);
    expect(await ids('a')).toEqual([2]);
    expect(await ids('b')).toEqual([]);
    expect(committed).toBe(false);
  });

  it('outputs run only with a commit: a NOTIFY beside a failed guard is never delivered', async () => {
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query('LISTEN ssw_test');
    try {
      await ds.query('INSERT INTO sswtest.a VALUES (1)');
      const failing = twoInserts(2);
      failing.output(`pg_notify('ssw_test', 'failed')`);
      await expect(failing.run(ds)).rejects.toBeInstanceOf(WriteConflict);
      const passing = twoInserts(1);
      passing.output(`pg_notify('ssw_test', 'committed')`);
      await passing.run(ds);
      await eventually(() => heard.includes('committed'), { timeoutMs: 30_000, intervalMs: 10 });
      expect(heard).toEqual(['committed']); // notifications arrive in commit order: 'failed' would have come first
    } finally {
      await listener.end();
    }
  });

  it("a write that does not wait for the flush commits, and the connection's next commits wait for it again", async () => {
    const one = await new DataSource({ type: 'postgres', url: db.url, extra: { max: 1 } }).initialize();
    try {
      const write = twoInserts(2);
      let committed = false;
      write.onCommit(() => (committed = true));
      expect(write.toSql({ flushWait: false })).toContain(`${NO_FLUSH_WAIT} AS no_flush_wait`);
      expect(write.toSql()).not.toContain('synchronous_commit');
      await write.run(one, { flushWait: false });
      expect([await ids('a'), await ids('b'), committed]).toEqual([[1, 2], [7], true]);
      // the setting was the statement's own transaction's: the pool's one connection is back to durable commits
      expect(await one.query('SHOW synchronous_commit')).toEqual([{ synchronous_commit: 'on' }]);
    } finally {
      await one.destroy();
    }
  });

  it('an error that is not a conflict (a constraint, bad SQL) is thrown as it is', async () => {
    const write = new SingleStatementWrite(GUARD);
    write.with('bad', `INSERT INTO sswtest.a VALUES (${write.param(null, 'int')})`);
    const err = await write.run(ds).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(WriteConflict);
    expect((err as { code?: string }).code).toBe('23502');
  });

  it('names each CTE uniquely, so two parts with the same prefix do not collide', () => {
    const write = new SingleStatementWrite(GUARD);
    expect(write.with('x', 'SELECT 1')).not.toBe(write.with('x', 'SELECT 2'));
    expect(write.toSql()).toMatch(
      /^WITH x_1 AS \(SELECT 1\),\nx_2 AS \(SELECT 2\)\nSELECT sswtest\.write_guard\(true\) AS ok$/,
    );
  });
});
