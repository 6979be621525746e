import { createTestDatabase, eventually, startNetLink, type NetLink, type TestDatabase } from '@herald/testing';
import pg from 'pg';
import {
  checkStalledConnections,
  configureConnectionWatchdog,
  DEFAULT_CONNECTION_WATCHDOG,
  WatchedClient,
} from './connection-watchdog.js';

/**
 * The connection watchdog on PostgreSQL, through a network link the test breaks (libs/testing's
 * NetLink: `partition()` leaves every connection open at both ends and drops its bytes, a half-open
 * network): a query stranded on a dead connection fails and its connection leaves the pool; the
 * dead connection's backend, holding a lock in its transaction, is terminated; a long query the
 * server is running is never touched.
 */
describe('connection watchdog (PostgreSQL)', () => {
  let db: TestDatabase;
  let link: NetLink;
  let direct: pg.Pool;
  const pools: pg.Pool[] = [];

  const linkedPool = () => {
    const url = new URL(db.url);
    url.hostname = link.host;
    url.port = String(link.port);
    const pool = new pg.Pool({ connectionString: url.toString(), Client: WatchedClient, max: 2 });
    pool.on('error', () => undefined);
    pools.push(pool);
    return pool;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    const url = new URL(db.url);
    link = await startNetLink(() => ({ host: url.hostname, port: Number(url.port || 5432) }));
    direct = new pg.Pool({ connectionString: db.url, max: 2 });
    await direct.query('CREATE TABLE locked (id int PRIMARY KEY)');
    await direct.query('INSERT INTO locked VALUES (1)');
    configureConnectionWatchdog({ stalledQueryMs: 300, connectTimeoutMs: 2_000 });
  });
  afterEach(() => link.heal());
  afterAll(async () => {
    configureConnectionWatchdog(DEFAULT_CONNECTION_WATCHDOG);
    for (const p of pools) await p.end().catch(() => undefined);
    await direct.end();
    await link.stop();
    await db.drop();
  });

  it('fails a query stranded on a dead connection and the pool discards that connection', async () => {
    const pool = linkedPool();
    await pool.query('SELECT 1');
    link.partition();
    const stranded = pool.query('SELECT 2 AS n');
    const outcome = stranded.then(
      () => 'answered',
      (e: Error) => e.message,
    );
    link.heal(); // new connections pass again; the one the query waits on stays dead
    await expect(
      eventually(() => outcome, { timeoutMs: 15_000, message: 'the stranded query ended' }),
    ).resolves.toMatch(/stalled|terminated|ECONNRESET|Connection terminated/);
    expect((await pool.query<{ n: number }>('SELECT 3 AS n')).rows[0]!.n).toBe(3);
  });

  it("terminates a dead connection's backend, so the lock its transaction held is released", async () => {
    const pool = linkedPool();
    const client = await pool.connect();
    await client.query('BEGIN');
    await client.query('SELECT * FROM locked WHERE id = 1 FOR UPDATE');
    link.partition();
    const stranded = client.query('UPDATE locked SET id = 1 WHERE id = 1').catch((e: Error) => e);
    link.heal();
    await stranded;
    client.release(true);
    // the row can be locked again without waiting: the dead session's transaction is gone
    await eventually(
      async () => {
        const c = await direct.connect();
        try {
          await c.query('BEGIN');
          await c.query('SELECT * FROM locked WHERE id = 1 FOR UPDATE NOWAIT');
          return true;
        } catch {
          return false;
        } finally {
          await c.query('ROLLBACK').catch(() => undefined);
          c.release();
        }
      },
      { timeoutMs: 15_000, message: "the dead session's lock released" },
    );
  });

  it('leaves alone a query the server is still running, however long it waits', async () => {
    const pool = linkedPool();
    const started = Date.now();
    const long = pool.query<{ ok: boolean }>('SELECT true AS ok FROM pg_sleep(1.5)');
    // out past the watchdog's limit (300 ms), and still running on the server
    await eventually(() => Date.now() - started > 600, { timeoutMs: 5_000, intervalMs: 50 });
    expect(await checkStalledConnections()).toBe(0);
    expect((await long).rows[0]!.ok).toBe(true);
  });
});
