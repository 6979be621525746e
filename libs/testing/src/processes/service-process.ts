import { spawn, type ChildProcess } from 'node:child_process';
import { reapOnExit } from './reap-on-exit.js';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { checkAnswersOf } from '../contract/answer-check.js';
import { TEST_INTERNAL_SECRET } from '../http/principal-headers.js';

/** Tests run from the repository root (Jest's rootDir). */
const ROOT = process.cwd();

/**
 * The ports this process hands to the services it starts: below the kernel's ephemeral range
 * (32768–60999 here), where no outgoing connection ever takes a port between the check and the
 * child's listen (one did: a PostgreSQL or Kafka client's local port, EADDRINUSE in a CI run), and
 * one band per Jest worker, so that two workers never hand out the same port. Processes outside a
 * worker (the global set-up, benches) share the last band.
 */
const PORT_BAND = (() => {
  const worker = Number(process.env.JEST_WORKER_ID ?? 0);
  return worker > 0 ? { from: 10_000 + ((worker - 1) % 8) * 2_500, size: 2_500 } : { from: 30_000, size: 2_700 };
})();
let nextPort = Math.floor(Math.random() * PORT_BAND.size);

/**
 * The ports `fetch` refuses to connect to ("bad port": the Fetch standard's port blocking,
 * https://fetch.spec.whatwg.org/#port-blocking), which the tests' clients and readiness checks use.
 * 10080 is inside the first worker's band: a CI run's standalone process listened there and never
 * looked ready.
 */
export const FETCH_BLOCKED_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** A port a service may be given: fetch reaches it, and nothing listens on it now. */
export const portUsable = (port: number): Promise<boolean> =>
  FETCH_BLOCKED_PORTS.has(port) ? Promise.resolve(false) : portFree(port);

/** Whether nothing listens on the loopback port now. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A free loopback port of this process's band (see PORT_BAND) that fetch reaches. */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < PORT_BAND.size; tried++) {
    const port = PORT_BAND.from + (nextPort++ % PORT_BAND.size);
    if (await portUsable(port)) return port;
  }
  throw new Error(`no free port in ${PORT_BAND.from}–${PORT_BAND.from + PORT_BAND.size - 1}`);
}

/** The first of `n` consecutive free loopback ports of this process's band, none handed out again by freePort. */
export async function freePortBlock(n: number): Promise<number> {
  for (let tried = 0; tried < PORT_BAND.size; tried++) {
    if (nextPort % PORT_BAND.size > PORT_BAND.size - n) nextPort += PORT_BAND.size - (nextPort % PORT_BAND.size);
    const first = PORT_BAND.from + (nextPort % PORT_BAND.size);
    nextPort += n;
    const ports = Array.from({ length: n }, (_, i) => first + i);
    if ((await Promise.all(ports.map(portUsable))).every(Boolean)) return first;
  }
  throw new Error(`no ${n} consecutive free ports in ${PORT_BAND.from}–${PORT_BAND.from + PORT_BAND.size - 1}`);
}

/** The apps that serve the public API: the standalone process, and the gateway in front of the services. */
const PUBLIC_APPS = new Set(['standalone', 'gateway']);

const registry = Symbol.for('herald.testing.startedProcesses');
type Registry = { [registry]?: Set<ServiceProcess> };

/** The service processes the current test file has started (their logs are shown when a test fails). */
export function startedProcesses(): ServiceProcess[] {
  return [...((globalThis as Registry)[registry] ?? [])];
}

/**
 * The level a service process logs at: HERALD_TEST_LOG_LEVEL when set (its lines are then also
 * echoed to the test's stderr as they come), else `warn`. Either way the output is captured, shown
 * only by failure messages and, after a failed test, by the harness (`jest/after-env.ts`).
 */
const childLogLevel = () => process.env.HERALD_TEST_LOG_LEVEL || 'warn';

/**
 * A Herald app running as its own OS process from the built `dist/` (what a container runs).
 * Tests start, kill and restart it; its output is kept for failure messages.
 */
export class ServiceProcess {
  private child?: ChildProcess;
  private exited?: Promise<number | null>;
  output = '';
  readonly url: string;
  /** The METRICS_PORT given to the process (the env's, else a free one picked at the first start). */
  private metricsPort?: number;

  constructor(
    readonly app: string,
    readonly port: number,
    /** Its variables (a second instance of the app is started with the same: test/faults' rolling restart). */
    readonly env: Record<string, string>,
    private readonly args: string[] = [],
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  static entry(app: string): string {
    const file = path.join(ROOT, process.env.HERALD_DIST ?? 'dist', 'apps', app, 'src/main.js');
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`bash scripts/build.sh\` (npm test does) before this test`);
    return file;
  }

  /** Where the process serves Prometheus metrics (its METRICS_PORT, not its public port); after `start`. */
  get metricsUrl(): string {
    if (this.metricsPort === undefined) throw new Error(`${this.app} was not started: no metrics port yet`);
    return `http://127.0.0.1:${this.metricsPort}/metrics`;
  }

  async start(options: { waitReady?: boolean; timeoutMs?: number } = {}): Promise<void> {
    this.metricsPort ??= this.env.METRICS_PORT ? Number(this.env.METRICS_PORT) : await freePort();
    const child = reapOnExit(
      spawn(process.execPath, [ServiceProcess.entry(this.app), ...this.args], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          LOG_LEVEL: childLogLevel(),
          ...this.env,
          PORT: String(this.port),
          METRICS_PORT: String(this.metricsPort),
          HOST: '127.0.0.1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    this.child = child;
    ((globalThis as Registry)[registry] ??= new Set()).add(this);
    const echo = Boolean(process.env.HERALD_TEST_LOG_LEVEL);
    const keep = (d: Buffer) => {
      this.output = (this.output + d.toString()).slice(-20_000);
      if (echo) process.stderr.write(d.toString().replace(/^(?=.)/gm, `[${this.app}:${this.port}] `));
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    if (options.waitReady !== false) await this.waitReady(options.timeoutMs ?? 120_000);
    // the public API's processes: their answers are checked against the OpenAPI document (jest/after-env.ts),
    // from when they are ready (a port another program holds when this one failed to listen is not Herald)
    if (PUBLIC_APPS.has(this.app) && this.args.length === 0) checkAnswersOf(this.url);
  }

  async waitReady(timeoutMs = 120_000): Promise<number> {
    const started = Date.now();
    let readiness = 'not listening';
    for (;;) {
      if (this.child?.exitCode !== null && this.child?.exitCode !== undefined) {
        throw new Error(`${this.app} exited with ${this.child.exitCode} before it was ready:\n${this.output}`);
      }
      try {
        const res = await fetch(`${this.url}/health/ready`);
        if (res.status === 200) return Date.now() - started;
        readiness = `${res.status} ${await res.text()}`;
      } catch {
        // not listening yet
      }
      if (Date.now() - started > timeoutMs)
        throw new Error(
          `${this.app} not ready within ${timeoutMs} ms (last /health/ready: ${readiness}):\n${this.output}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGKILL: the process dies mid-work, as in a crash or an OOM kill. */
  async kill(): Promise<void> {
    if (!this.child || this.child.exitCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM and wait: a graceful shutdown; returns the exit code. */
  async stop(timeoutMs = 30_000): Promise<number | null> {
    if (!this.child || this.child.exitCode !== null) return this.child?.exitCode ?? null;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), timeoutMs);
    const code = await this.exited!;
    clearTimeout(timer);
    return code;
  }

  /** Exit code once the process ends by itself (e.g. a `migrate` run or a config error). */
  async exitCode(): Promise<number | null> {
    return this.exited!;
  }
}

/**
 * The shell's KAFKA_SSL* and KAFKA_SASL_* settings, with KAFKA_BROKERS set: the suite run against a
 * secured cluster (docs/operations.md, "Kafka in production") passes them to every service process.
 */
export function kafkaSecurityEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (!env.KAFKA_BROKERS) return {};
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => /^KAFKA_(SSL|SASL)/.test(e[0]) && e[1] !== undefined),
  );
}

/** The settings every service process needs in distributed-mode tests (plus per-test extras). */
export function distributedEnv(
  databaseUrl: string,
  brokers: string[],
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: brokers.join(','),
    INTERNAL_JWT_SECRET: TEST_INTERNAL_SECRET,
    // the librdkafka mock cluster needs a session timeout of at least 6 s; short fetch waits keep stops quick
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    KAFKA_MAX_WAIT_MS: '100',
    DATABASE_POOL_SIZE: '4',
    ...kafkaSecurityEnv(),
    ...extra,
  };
}

/** Runs `main.js migrate` of each app, as the Kubernetes Job does; throws when one fails. */
export async function migrateApps(apps: string[], env: Record<string, string>): Promise<void> {
  for (const app of apps) {
    const migrate = new ServiceProcess(app, await freePort(), env, ['migrate']);
    await migrate.start({ waitReady: false });
    const code = await migrate.exitCode();
    if (code !== 0) throw new Error(`${app} migrate exited with ${code}: ${migrate.output.slice(-2000)}`);
  }
}
