/**
 * Cold-start times: `npm run bench -- cold-start`.
 * - standalone on a fresh data directory (embedded PostgreSQL initdb + all migrations), then warm restarts,
 *   alternately with Node's module compile cache (as `npm start`) and without it;
 * - one service (contacts) in Kafka mode, from process spawn to /health/ready 200.
 * Uses DATABASE_URL for the Kafka-mode service when set, else an embedded server; Kafka from
 * KAFKA_BROKERS or the librdkafka mock.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@herald/persistence';
import { freePort, ServiceProcess, startKafka } from '@herald/testing';
import { START_COMPILE_CACHE } from './support.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeToReady(proc: ServiceProcess): Promise<number> {
  const started = performance.now();
  await proc.start({ waitReady: false });
  await proc.waitReady(60_000);
  return Math.round(performance.now() - started);
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'herald-bench-'));
await chmod(dir, 0o755);
try {
  const port = await freePort();
  const env = { HERALD_DATA_DIR: path.join(dir, 'standalone'), NODE_COMPILE_CACHE: START_COMPILE_CACHE };
  const first = new ServiceProcess('standalone', port, env);
  const fresh = await timeToReady(first);
  await first.stop();
  // restarts alternate between Node's compile cache (as `npm start` runs it, warmed by the first
  // start) and none (NODE_DISABLE_COMPILE_CACHE): the cache's share of the boot
  const warm: number[] = [];
  const uncached: number[] = [];
  for (let i = 0; i < 3; i++) {
    for (const [times, extra] of [
      [warm, {}],
      [uncached, { NODE_DISABLE_COMPILE_CACHE: '1' }],
    ] as const) {
      const p = new ServiceProcess('standalone', port, { ...env, ...extra });
      times.push(await timeToReady(p));
      await p.stop();
    }
  }
  console.log(
    `standalone  fresh data dir (initdb + migrations): ${fresh} ms; restart (median of 3): ${median(warm)} ms ` +
      `(runs: ${warm.join(', ')} ms); the same without the compile cache (NODE_DISABLE_COMPILE_CACHE=1): ` +
      `${median(uncached)} ms (runs: ${uncached.join(', ')} ms)`,
  );

  let dbUrl = process.env.DATABASE_URL;
  let stopDb: (() => Promise<void>) | undefined;
  if (!dbUrl) {
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
    dbUrl = pg.url;
    stopDb = pg.stop;
  }
  const kafka = await startKafka();
  try {
    const svcEnv = {
      DATABASE_URL: dbUrl,
      KAFKA_BROKERS: kafka.brokers.join(','),
      INTERNAL_JWT_SECRET: 'bench-secret-0123456789abcdef0123456789',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    };
    const migrate = new ServiceProcess('contacts', await freePort(), svcEnv, ['migrate']);
    await migrate.start({ waitReady: false });
    if ((await migrate.exitCode()) !== 0) throw new Error(`migrate failed:\n${migrate.output}`);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const p = new ServiceProcess('contacts', await freePort(), svcEnv);
      times.push(await timeToReady(p));
      await p.stop();
    }
    console.log(
      `contacts    Kafka mode (${kafka.provider} broker), spawn to ready: median ${median(times)} ms (runs: ${times.join(', ')} ms)`,
    );
  } finally {
    await kafka.stop();
    await stopDb?.();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
