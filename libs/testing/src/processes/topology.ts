import { SERVICES, UPSTREAMS, urlVariableOf } from '@herald/core';
import { checkAnswersOf } from '../contract/answer-check.js';
import { startKafka, type KafkaBroker } from '../kafka/kafka-broker.js';
import { TEST_INTERNAL_SECRET } from '../http/principal-headers.js';
import { createTestDatabase, type TestDatabase } from '../postgres/test-database.js';
import { startRedis } from '../redis/test-redis.js';
import { testReport } from '../report/test-report.js';
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
  /**
   * Variables every process gets (RATE_LIMIT_PER_MINUTE, SEGMENTS_SWEEP_INTERVAL_MS, …). An `APP_URL`
   * here is the public base URL in both modes (distributed default: the gateway's own URL).
   */
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
  /**
   * True when this is the run's shared distributed topology (global setup): its processes live in
   * Jest's main process (`processes` is empty here), `restart` is refused and `stop()` does nothing.
   */
  shared?: boolean;
  /** The process hosting `service`: that service's own (distributed) or the one process (standalone). */
  processOf(service: string): ServiceProcess;
  /**
   * Stops the process hosting `service` (SIGKILL, or SIGTERM and a graceful stop) and starts it again,
   * resolving once it is ready. Only on an {@link TopologyOptions.exclusive} topology.
   */
  restart(service: string, how: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  stop(): Promise<void>;
}

/**
 * One line of figures: the mode and each process's spawn-to-ready time ({@link startTopology} reports
 * it through `testReport` for each topology it starts).
 */
export function describeTopology(t: Topology): string {
  const times = Object.entries(t.spawnToReadyMs)
    .map(([name, ms]) => `${name} ${ms} ms`)
    .join(', ');
  return `${t.shared ? 'shared ' : ''}${t.mode} topology, spawn to ready: ${times}`;
}

/**
 * The settings of the run's shared distributed topology: a call to {@link startTopology} whose `env`
 * asks for nothing else (each variable absent here or of the same value) and no `serviceEnv` reuses
 * it. Generous, so that most files need nothing of their own.
 */
export const SHARED_TOPOLOGY_ENV: Readonly<Record<string, string>> = {
  RATE_LIMIT_PER_MINUTE: '100000',
  // webhook endpoints on the e2e files' loopback receivers (`http://localhost:…`), retried within a second
  WEBHOOKS_ALLOW_HTTP: 'true',
  WEBHOOKS_ALLOW: 'localhost',
  WEBHOOKS_RETRY_SCHEDULE: '300ms,600ms',
};

/**
 * The DKIM_ENCRYPTION_KEY of a distributed topology's domains and sending processes (standalone,
 * given none, derives its own from the internal secret: `dkimEncryptionKey` of @herald/core).
 */
export const TOPOLOGY_DKIM_ENCRYPTION_KEY = 'e2e-topology-dkim-encryption-key-0123456789';

/**
 * The variable naming a database every service's migrations were applied to, made once per run by
 * the distributed global setup ({@link prepareTopologyTemplate}): a distributed topology copies it
 * instead of running eight `migrate` processes.
 */
export const TOPOLOGY_TEMPLATE_VARIABLE = 'HERALD_E2E_TEMPLATE_DATABASE';

/** The variables every process of a distributed topology gets (before its URLs and APP_URL). */
function topologyEnv(databaseUrl: string, brokers: string[], extra: Record<string, string>): Record<string, string> {
  return distributedEnv(databaseUrl, brokers, {
    // the secrets the sending service needs in its own process (standalone derives its own)
    DKIM_ENCRYPTION_KEY: TOPOLOGY_DKIM_ENCRYPTION_KEY,
    LINK_SECRET: 'e2e-topology-link-secret-0123456789abcdef',
    ...extra,
  });
}

/**
 * A database with every service's migrations applied, for distributed topologies to copy (see
 * {@link TOPOLOGY_TEMPLATE_VARIABLE}); `migrate` needs no broker, so none is started.
 */
export async function prepareTopologyTemplate(): Promise<TestDatabase> {
  const template = await createTestDatabase('herald_template');
  try {
    await migrateApps(
      SERVICES.map((s) => s.name),
      topologyEnv(template.url, ['127.0.0.1:9'], {}),
    );
    return template;
  } catch (err) {
    await template.drop();
    throw err;
  }
}

/** The variable through which the global setup hands the shared topology to the test files. */
export const SHARED_TOPOLOGY_VARIABLE = 'HERALD_E2E_SHARED_TOPOLOGY';

/** What a test file needs of the shared topology (JSON in {@link SHARED_TOPOLOGY_VARIABLE}). */
export interface SharedTopologyHandle {
  url: string;
  db: { url: string; name: string };
  spawnToReadyMs: Record<string, number>;
}

/** Whether `options` can be served by the shared topology: no settings beyond {@link SHARED_TOPOLOGY_ENV}. */
export function coveredBySharedTopology(options: TopologyOptions): boolean {
  if (options.exclusive) return false;
  if (Object.values(options.serviceEnv ?? {}).some((vars) => Object.keys(vars ?? {}).length > 0)) return false;
  return Object.entries(options.env ?? {}).every(([name, value]) => SHARED_TOPOLOGY_ENV[name] === value);
}

/** The run's shared distributed topology when one is running and `options` fit it. */
function sharedTopologyFor(mode: E2eMode, options: TopologyOptions): Topology | undefined {
  const raw = process.env[SHARED_TOPOLOGY_VARIABLE];
  if (mode !== 'distributed' || !raw || raw === '0' || !coveredBySharedTopology(options)) return undefined;
  const handle = JSON.parse(raw) as SharedTopologyHandle;
  checkAnswersOf(handle.url);
  const db: TestDatabase = { ...handle.db, drop: async () => undefined };
  return {
    ...topologyOf(mode, handle.url, db, new Map(), handle.spawnToReadyMs, async () => undefined),
    shared: true,
    processOf(service) {
      throw new Error(
        `the shared topology's processes (${service}) belong to the run: pass \`exclusive: true\` to startTopology`,
      );
    },
    async restart(service) {
      throw new Error(`restarting ${service} needs a topology of the file's own: pass \`exclusive: true\``);
    },
  };
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
      await proc.start({ timeoutMs: START_DEADLINE_MS });
    },
    stop,
  };
}

/**
 * How long a process of a topology may take from spawn to ready: a deadline, not a speed target (eight
 * processes spawned at once on a busy 2-core machine can take minutes; bench/ and service-lifecycle
 * report the real figures: test-results/figures.log).
 */
const START_DEADLINE_MS = 300_000;

/** `t`, its spawn-to-ready times reported as test figures (`testReport`: quiet unless asked). */
function reported(t: Topology): Topology {
  testReport(describeTopology(t));
  return t;
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
 * first, each given every other service's `<NAME>_URL` (`GATEWAY_URL` too), `APP_URL` and the shared internal
 * secret; upstreams start together, then the gateway. Standalone: one process with the same `env`, its
 * `APP_URL` its own address.
 * In distributed mode under Jest, a call that is not `exclusive` and asks for no settings beyond
 * {@link SHARED_TOPOLOGY_ENV} gets the run's shared topology (jest/distributed-global-setup.mjs)
 * instead of starting one; isolation then comes from each test's own account and project.
 * Each topology started reports its spawn-to-ready times through `testReport` (the shared one from the
 * global setup, once per run).
 */
export async function startTopology(options: TopologyOptions = {}): Promise<Topology> {
  const mode = options.mode ?? e2eMode();
  const shared = sharedTopologyFor(mode, options);
  if (shared) return shared;
  const extra = options.env ?? {};
  const template = mode === 'distributed' ? process.env[TOPOLOGY_TEMPLATE_VARIABLE] : undefined;
  const db = await createTestDatabase('herald_test', { template });
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
        // links in mail (unsubscribe, tracking) point at the one process, as they point at the gateway
        APP_URL: `http://127.0.0.1:${port}`,
        ...extra,
      });
      processes.set('standalone', herald);
      spawnToReadyMs.standalone = await timedStart(herald, START_DEADLINE_MS);
      return reported(topologyOf(mode, herald.url, db, processes, spawnToReadyMs, stop));
    }
    const [kafka, redis]: [KafkaBroker, { url: string; stop(): Promise<void> }] = await Promise.all([
      startKafka(),
      startRedis(),
    ]);
    cleanups.push(
      () => kafka.stop(),
      () => redis.stop(),
    );
    const env = topologyEnv(db.url, kafka.brokers, extra);
    if (!template)
      await migrateApps(
        SERVICES.map((s) => s.name),
        env,
      );
    const ports = new Map<string, number>();
    for (const s of SERVICES) ports.set(s.name, await freePort());
    const urls = Object.fromEntries(
      UPSTREAMS.map((name) => [urlVariableOf(name), `http://127.0.0.1:${ports.get(name)}`]),
    );
    const gatewayUrl = `http://127.0.0.1:${ports.get('gateway')}`;
    const appUrl = extra.APP_URL ?? gatewayUrl;
    for (const s of SERVICES)
      processes.set(
        s.name,
        new ServiceProcess(s.name, ports.get(s.name)!, {
          ...env,
          ...urls,
          // the gateway's own address (APP_URL may be a public one): read-your-writes asks it of its writes
          GATEWAY_URL: gatewayUrl,
          APP_URL: appUrl,
          ...(s.name === 'gateway' ? { REDIS_URL: redis.url } : {}),
          ...(options.serviceEnv?.[s.name] ?? {}),
        }),
      );
    const upstreams = SERVICES.filter((s) => s.name !== 'gateway');
    await Promise.all(
      upstreams.map(async (s) => {
        spawnToReadyMs[s.name] = await timedStart(processes.get(s.name)!, START_DEADLINE_MS);
      }),
    );
    spawnToReadyMs.gateway = await timedStart(processes.get('gateway')!, START_DEADLINE_MS);
    return reported(topologyOf(mode, gatewayUrl, db, processes, spawnToReadyMs, stop));
  } catch (err) {
    await stop();
    throw err;
  }
}
