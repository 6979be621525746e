/**
 * libs/jobs against pg-boss on the same PostgreSQL, in the same run: `npm run bench -- jobs-vs-pg-boss`
 * (ADR 0018). pg-boss is not a dependency of Herald: install it anywhere and point PG_BOSS_MODULE at
 * its entry, e.g. `npm i --prefix /tmp/pgboss pg-boss` then
 * `PG_BOSS_MODULE=/tmp/pgboss/node_modules/pg-boss/dist/index.js`.
 *
 * Each round: BENCH_JOBS (5 000) jobs enqueued one statement each (autocommit) by BENCH_PRODUCERS (8)
 * concurrent producers, workers stopped; then the workers start (BENCH_CONCURRENCY, 8, jobs at once,
 * a handler that does nothing) and the clock runs until the table holds every job completed.
 * libs/jobs: JobQueue as the services run it (lease 30 s, NOTIFY wake-ups). pg-boss 12: one worker
 * per local concurrency slot, NOTIFY on, batchSize 1 (one job per handler call, like libs/jobs) with
 * `burstWhenReadyExceeds: 1` and its stats refreshed every second (with its defaults a worker waits
 * its polling interval, ≥ 0.5 s, after every fetch: 2 jobs/s a slot on a backlog); and batchSize 20
 * with `burstWhenBatchFull` (its batch fetch, which libs/jobs does not have). BENCH_ROUNDS (2) rounds alternate
 * the systems.
 */
import { configureLogging } from '@herald/core';
import { Job, JobQueue } from '@herald/jobs';
import { createServiceDataSource } from '@herald/persistence';
import type { DataSource } from 'typeorm';
import { benchDatabase, num, printTable } from './support.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 5000);
const PRODUCERS = Number(process.env.BENCH_PRODUCERS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PG_BOSS = process.env.PG_BOSS_MODULE ?? 'pg-boss';

interface Boss {
  start(): Promise<unknown>;
  stop(options?: object): Promise<void>;
  createQueue(name: string, options?: object): Promise<void>;
  send(name: string, data: object): Promise<string | null>;
  work(name: string, options: object, handler: (jobs: unknown[]) => Promise<void>): Promise<string>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

configureLogging(process.env.LOG_LEVEL ?? 'warn');

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function produce(send: (i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PRODUCERS }, async () => {
      while (next < JOBS) await send(next++);
    }),
  );
  return performance.now() - started;
}

interface Figures {
  system: string;
  enqueueMs: number;
  drainMs: number;
}

async function libsJobs(ds: DataSource, url: string, round: number): Promise<Figures> {
  await ds.query('TRUNCATE jobbench.jobs');
  const q = new JobQueue('jobbench', url, ds, { leaseMs: 30_000, pollIntervalMs: 1000, concurrency: CONCURRENCY });
  q.register('bench', async () => undefined);
  const enqueueMs = await produce((i) => q.enqueue(ds.manager, 'bench', { i, round }));
  const started = performance.now();
  await q.start();
  await until('libs/jobs to complete every job', async () => {
    const [{ n }] = (await ds.query(`SELECT count(*)::int AS n FROM jobbench.jobs WHERE state = 'completed'`)) as {
      n: number;
    }[];
    return n === JOBS;
  });
  const drainMs = performance.now() - started;
  await q.stop();
  return { system: 'libs/jobs', enqueueMs, drainMs };
}

async function pgBoss(
  PgBoss: new (options: object) => Boss,
  ds: DataSource,
  url: string,
  batchSize: number,
  round: number,
): Promise<Figures> {
  const schema = `pgboss_bench_${round}_${batchSize}`;
  const boss = new PgBoss({
    connectionString: url,
    schema,
    max: PRODUCERS + CONCURRENCY + 4,
    useListenNotify: true,
    schedule: false,
    // the stats that burstWhenReadyExceeds reads, every second instead of every minute
    superviseIntervalSeconds: 1,
    monitorIntervalSeconds: 1,
    queueCacheIntervalSeconds: 1,
  });
  boss.on('error', (err) => console.error('pg-boss error', err));
  await boss.start();
  await boss.createQueue('bench', { notify: true });
  const enqueueMs = await produce((i) => boss.send('bench', { i, round }));
  const started = performance.now();
  await boss.work(
    'bench',
    // without a burst trigger a worker waits its polling interval (≥ 0.5 s) after each fetch, backlog or not
    batchSize > 1
      ? { localConcurrency: CONCURRENCY, batchSize, pollingIntervalSeconds: 0.5, burstWhenBatchFull: true }
      : { localConcurrency: CONCURRENCY, batchSize, pollingIntervalSeconds: 0.5, burstWhenReadyExceeds: 1 },
    async () => undefined,
  );
  await until('pg-boss to complete every job', async () => {
    const [{ n }] = (await ds.query(
      `SELECT count(*)::int AS n FROM ${schema}.job WHERE name = 'bench' AND state = 'completed'`,
    )) as { n: number }[];
    return n === JOBS;
  });
  const drainMs = performance.now() - started;
  await boss.stop({ graceful: true, timeout: 10_000 });
  await ds.query(`DROP SCHEMA ${schema} CASCADE`);
  return { system: `pg-boss (batchSize ${batchSize})`, enqueueMs, drainMs };
}

const db = await benchDatabase('jobs_vs_pgboss');
try {
  const { PgBoss } = (await import(PG_BOSS)) as { PgBoss: new (options: object) => Boss };
  const ds = await createServiceDataSource(
    { service: 'jobbench', entities: [Job], migrations: [] },
    db.url,
    PRODUCERS + CONCURRENCY + 4,
  ).initialize();
  await ds.query('CREATE SCHEMA jobbench');
  await ds.synchronize();
  const rows: string[][] = [['round', 'system', 'enqueue jobs/s', 'run to completed jobs/s']];
  for (let round = 1; round <= ROUNDS; round++) {
    const order =
      round % 2 === 1
        ? [() => libsJobs(ds, db.url, round), () => pgBoss(PgBoss, ds, db.url, 1, round)]
        : [() => pgBoss(PgBoss, ds, db.url, 1, round), () => libsJobs(ds, db.url, round)];
    for (const run of [...order, () => pgBoss(PgBoss, ds, db.url, 20, round)]) {
      const f = await run();
      console.log(`${f.system}: enqueued in ${Math.round(f.enqueueMs)} ms, completed in ${Math.round(f.drainMs)} ms`);
      rows.push([String(round), f.system, num((JOBS / f.enqueueMs) * 1000), num((JOBS / f.drainMs) * 1000)]);
    }
  }
  console.log(
    `\n${num(JOBS)} jobs, ${PRODUCERS} producers, ${CONCURRENCY} jobs at once, handler does nothing; PostgreSQL ${db.url.replace(/\/\/[^@]*@/, '//')}\n`,
  );
  printTable(rows);
  await ds.destroy();
} finally {
  await db.close();
}
