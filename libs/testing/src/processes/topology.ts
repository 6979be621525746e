import { SERVICES, UPSTREAMS, urlVariableOf } from '@herald/core';
import { startKafka, type KafkaBroker } from '../kafka/kafka-broker.js';
import { TEST_INTERNAL_SECRET } from '../http/principal-headers.js';
import { createTestDatabase, type TestDatabase } from '../postgres/test-database.js';
import { startRedis } from '../redis/test-redis.js';
import { distributedEnv, freePort, migrateApps, ServiceProcess } from './service-process.js';

/** How route-level e2e files deploy Herald: one process, or every service its own over Kafka. */
export type E2eMode = 'standalone' | 'distributed';

/**
 * The mode of this run: HERALD_E2E_MODE=standalone|distributed (default standalone). The same test
 * files run in both; CI runs the suite once per mode.
 */
export function e2eMode(): E2eMode {
  const mode = process.env.HERALD_E2E_MODE ?? 'standalone';
  if (mode !== 'standalone' && mode !== 'distributed')
    throw new Error(`HERALD_E2E_MODE must be standalone or distributed, not "${mode}"`);
  return mode;
}

export interface TopologyOptions {
  /** The mode (default: {@link e2eMode}). */
  mode?: E2eMode;
  /** Variables every process gets (RATE_LIMIT_PER_MINUTE, SEGMENTS_SWEEP_INTERVAL_MS, …). */
  env?: Record<string, string>;
  /** Variables of one service only in distributed mode (ignored in standalone, where `env` applies). */
  serviceEnv?: Partial<Record<string, Record<string, string>>>;
  /**
   * A topology of this file's own, never shared with other files: required when the file kills or
   * restarts processes ({@link Topology.restart}) or needs settings no other file may see.
   */
  exclusive?: boolean;
}

/** A running Herald of either mode, as a route-level test sees it. */
export interface Topology {
  mode: E2eMode;
  /** The public URL: the gateway (distributed) or the one process (standalone). */
  url: string;
  db: TestDatabase;
  /** Each process by app name (`standalone`, or `gateway`, `contacts`, …). */
  processes: Map<string, ServiceProcess>;
  /** Milliseconds from spawn to /health/ready 200, per process. */
  spawnToReadyMs: Record<string, number>;
  /** The process hosting `service`: that service's own (distributed) or the one process (standalone). */
  processOf(service: string): ServiceProcess;
  /**
   * Stops the process hosting `service` (SIGKILL, or SIGTERM and a graceful stop) and starts it again,
   * resolving once it is ready. Only on an {@link TopologyOptions.exclusive} topology.
   */
  restart(service: string, how: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  stop(): Promise<void>;
}

/** One line for a test's output: the mode and each process's spawn-to-ready time. */
export function describeTopology(t: Topology): string {
  const times = Object.entries(t.spawnToReadyMs)
    .map(([name, ms]) => `${name} ${ms} ms`)
    .join(', ');
  return `${t.mode} topology, spawn to ready: ${times}`;
}

function topologyOf(
  mode: E2eMode,
  url: string,
  db: TestDatabase,
  processes: Map<string, ServiceProcess>,
  spawnToReadyMs: Record<string, number>,
  stop: () => Promise<void>,
): Topology {
  const processOf = (service: string): ServiceProcess => {
    const proc = processes.get(mode === 'standalone' ? 'standalone' : service);
    if (!proc) throw new Error(`no process hosts "${service}" in this ${mode} topology`);
    return proc;
  };
  return {
    mode,
    url,
    db,
    processes,
    spawnToReadyMs,
    processOf,
    async restart(service, how) {
      const proc = processOf(service);
      if (how === 'SIGKILL') await proc.kill();
      else await proc.stop();
      await proc.start({ timeoutMs: 120_000 });
    },
    stop,
  };
}

/** Starts `proc` and answers the milliseconds from spawn to ready. */
async function timedStart(proc: ServiceProcess, timeoutMs: number): Promise<number> {
  const started = performance.now();
  await proc.start({ timeoutMs });
  return Math.round(performance.now() - started);
}

/**
 * Herald deployed for a route-level e2e file, in the mode of the run. Distributed: every service of
 * `SERVICES` (libs/core/src/service-directory.ts: a new service is deployed without editing this) as
 * its own process on one database, Kafka (librdkafka's mock unless KAFKA_BROKERS) and Redis, migrated
 * first, each given every other service's `<NAME>_URL`, `APP_URL` (the gateway) and the shared internal
 * secret; upstreams start together, then the gateway. Standalone: one process with the same `env`
 * (and `APP_URL`, its own URL).
 */
export async function startTopology(options: TopologyOptions = {}): Promise<Topology> {
  const mode = options.mode ?? e2eMode();
  const extra = options.env ?? {};
  const db = await createTestDatabase();
  const processes = new Map<string, ServiceProcess>();
  const spawnToReadyMs: Record<string, number> = {};
  const cleanups: (() => Promise<void>)[] = [() => db.drop()];
  const stop = async () => {
    await Promise.allSettled([...processes.values()].map((p) => p.stop()));
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    if (mode === 'standalone') {
      const port = await freePort();
      const herald = new ServiceProcess('standalone', port, {
        DATABASE_URL: db.url,
        INTERNAL_JWT_SECRET: TEST_INTERNAL_SECRET,
        // links in emails (unsubscribe, open, click) point at this process, as they point at the gateway in distributed mode
        APP_URL: `http://127.0.0.1:${port}`,
        ...extra,
      });
      processes.set('standalone', herald);
      spawnToReadyMs.standalone = await timedStart(herald, 90_000);
      return topologyOf(mode, herald.url, db, processes, spawnToReadyMs, stop);
    }
    const [kafka, redis]: [KafkaBroker, { url: string; stop(): Promise<void> }] = await Promise.all([
      startKafka(),
      startRedis(),
    ]);
    cleanups.push(
      () => kafka.stop(),
      () => redis.stop(),
    );
    const env = distributedEnv(db.url, kafka.brokers, {
      // the secrets the sending service needs in its own process (standalone derives its own)
      DKIM_ENCRYPTION_KEY: 'e2e-topology-dkim-encryption-key-0123456789',
      LINK_SECRET: 'e2e-topology-link-secret-0123456789abcdef',
      ...extra,
    });
    await migrateApps(
      SERVICES.map((s) => s.name),
      env,
    );
    const ports = new Map<string, number>();
    for (const s of SERVICES) ports.set(s.name, await freePort());
    const urls = Object.fromEntries(
      UPSTREAMS.map((name) => [urlVariableOf(name), `http://127.0.0.1:${ports.get(name)}`]),
    );
    const appUrl = `http://127.0.0.1:${ports.get('gateway')}`;
    for (const s of SERVICES)
      processes.set(
        s.name,
        new ServiceProcess(s.name, ports.get(s.name)!, {
          ...env,
          ...urls,
          APP_URL: appUrl,
          ...(s.name === 'gateway' ? { REDIS_URL: redis.url } : {}),
          ...(options.serviceEnv?.[s.name] ?? {}),
        }),
      );
    const upstreams = SERVICES.filter((s) => s.name !== 'gateway');
    await Promise.all(
      upstreams.map(async (s) => {
        spawnToReadyMs[s.name] = await timedStart(processes.get(s.name)!, 120_000);
      }),
    );
    spawnToReadyMs.gateway = await timedStart(processes.get('gateway')!, 120_000);
    return topologyOf(mode, appUrl, db, processes, spawnToReadyMs, stop);
  } catch (err) {
    await stop();
    throw err;
  }
}
