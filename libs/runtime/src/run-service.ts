import 'reflect-metadata';
import {
  configureLogging,
  ConfigError,
  createLogger,
  HealthRegistry,
  kafkaSecurityOf,
  loadConfig,
  MigrateConfig,
  NestJsonLogger,
  PeerUrlsConfig,
  startTracing,
  TracingConfig,
  RetentionConfig,
  retentionSettings,
  peerUrls,
  ServiceConfig,
  trustedProxies,
  type HeraldRuntime,
  serviceEntry,
  type ServiceDefinition,
} from '@herald/core';
import { createHttpApp, MetricsServer, MetricsSettings } from '@herald/http';
import { ConsumerProgress, ConsumerRegistry, KAFKA_CLIENT, KafkaEventServer, ReadYourWrites } from '@herald/messaging';
import { configureConnectionWatchdog, createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import type { Kafka } from 'kafkajs';
import { HeraldRootModule } from './root-module.js';
import { EarlyServer } from './early-server.js';
import { installGracefulShutdown } from './shutdown.js';
import { runServiceJobsCommand } from './jobs-command.js';
import { runTopicsCommand } from './topics-command.js';

const log = createLogger('boot');

/** Validated config, or exit 1 with every bad variable named. */
export function configOrExit<T extends object>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      log.error('invalid configuration', { problems: err.problems });
      process.exit(1);
    }
    throw err;
  }
}

/**
 * Entry point of one service in distributed mode (`apps/<service>/src/main.ts`):
 * `main.js` serves HTTP and consumes Kafka; `main.js migrate` applies the schema's migrations and
 * exits (the Kubernetes Job before a rollout); `main.js topics [--check]` creates or checks every
 * Kafka topic Herald uses (the kafka-topics Job; any service's image runs it); `main.js jobs list|retry`
 * lists the service's dead-lettered jobs or puts one back in its queue.
 */
export async function runService(def: ServiceDefinition, argv = process.argv.slice(2)): Promise<void> {
  const started = performance.now();
  if (argv[0] === 'migrate') {
    const migrateConfig = configOrExit(() => loadConfig(MigrateConfig));
    configureLogging(migrateConfig.LOG_LEVEL);
    const ds = await createServiceDataSource(def.schema, migrateConfig.DATABASE_URL, 2).initialize();
    const applied = await migrateServiceSchema(ds);
    await ds.destroy();
    log.info('migrations applied', { service: def.name, applied });
    return;
  }
  if (argv[0] === 'topics') {
    process.exitCode = await runTopicsCommand(def.name, argv.slice(1));
    return;
  }
  if (argv[0] === 'jobs') {
    process.exitCode = await runServiceJobsCommand(def, argv.slice(1));
    return;
  }
  const config = configOrExit(() => loadConfig((def.config ?? ServiceConfig) as new () => ServiceConfig));
  const peers = configOrExit(() => loadConfig(PeerUrlsConfig));
  const metricsSettings = configOrExit(() => loadConfig(MetricsSettings));
  const retention = configOrExit(() => loadConfig(RetentionConfig));
  configureLogging(config.LOG_LEVEL);
  configureConnectionWatchdog({
    stalledQueryMs: config.DATABASE_STALLED_QUERY_MS,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  });
  await startTracing({ serviceName: def.name, config: configOrExit(() => loadConfig(TracingConfig)) });
  const port = config.PORT ?? serviceEntry(def.name).defaultPort;
  // Listen first: /health/live answers and /health/ready says what the start waits for.
  const early = await EarlyServer.listen(port, config.HOST);
  early.waitingFor('starting: connecting to the database');

  const runtime: HeraldRuntime = {
    mode: 'distributed',
    databaseUrl: config.DATABASE_URL,
    databasePoolSize: config.DATABASE_POOL_SIZE,
    internalJwtSecret: config.INTERNAL_JWT_SECRET,
    jobLeaseMs: config.JOB_LEASE_MS,
    readYourWrites: { enabled: config.READ_YOUR_WRITES, timeoutMs: config.READ_YOUR_WRITES_TIMEOUT_MS },
    peerUrls: peerUrls(peers),
    retention: retentionSettings(retention),
    kafka: {
      brokers: config.KAFKA_BROKERS.split(','),
      clientId: config.KAFKA_CLIENT_ID ?? `herald-${def.name}`,
      sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
      maxWaitMs: config.KAFKA_MAX_WAIT_MS,
      groupPrefix: config.KAFKA_GROUP_PREFIX,
      security: kafkaSecurityOf(config),
    },
  };
  const app = await createHttpApp(HeraldRootModule.compose(runtime, [def]), {
    serverFactory: early.fastifyServerFactory,
    trustProxy: trustedProxies(config.TRUSTED_PROXIES),
  });
  app.useLogger(new NestJsonLogger());
  // The consumers join their groups in the background: the routes are served meanwhile, and
  // readiness stays 503 ("consumers: not joined") until they have.
  const consumers = new KafkaEventServer(app.get(ConsumerRegistry), app.get<Kafka>(KAFKA_CLIENT), {
    ...consumerGroupSettings(config),
    joinInBackground: true,
    progress: app.get(ConsumerProgress),
  });
  app.get(HealthRegistry).register({ name: 'consumers', check: () => consumers.checkJoined() });
  app.connectMicroservice({ strategy: consumers }, { inheritAppConfig: true });
  await app.startAllMicroservices();
  if (config.READ_YOUR_WRITES) warnOfMissingPeerUrls(def.name, app.get(ReadYourWrites).producersFor(def.name), runtime);
  await app.listen({ port, host: config.HOST });
  installGracefulShutdown(app, { timeoutMs: config.SHUTDOWN_TIMEOUT_MS, drainMs: config.SHUTDOWN_DRAIN_MS });
  const metrics = await MetricsServer.listen(metricsSettings.METRICS_PORT, config.HOST);
  log.info('service started', {
    service: def.name,
    url: await app.getUrl(),
    metricsPort: metrics.port,
    startupMs: Math.round(performance.now() - started),
  });
}

/**
 * Read-your-writes asks each producer a service consumes from (but itself) whether a project's
 * writes are published, at its URL. A deployment of some services only (tests, a partial rollout)
 * starts without the others' URLs: a read that must wait for one of them answers 503 naming the
 * variable; the start says so beforehand.
 */
function warnOfMissingPeerUrls(service: string, producers: readonly string[], runtime: HeraldRuntime): void {
  const missing = producers.filter((p) => p !== service && !runtime.peerUrls?.[p]);
  if (missing.length === 0) return;
  log.warn('peer URLs missing: reads after writes to these services answer 503 until they are set', {
    service,
    missing: missing.map((p) => (p === 'gateway' ? 'GATEWAY_URL (or APP_URL)' : `${p.toUpperCase()}_URL`)),
  });
}

/**
 * Consumer-group timings from the session timeout (KAFKA_SESSION_TIMEOUT_MS, default 10 s): a
 * heartbeat every tenth of it, and 30 s (at least the session timeout) for live members to rejoin a
 * rebalance after their batch in flight. docs/operations.md explains the choice.
 */
export function consumerGroupSettings(
  config: Pick<ServiceConfig, 'KAFKA_GROUP_PREFIX' | 'KAFKA_SESSION_TIMEOUT_MS' | 'KAFKA_MAX_WAIT_MS'>,
) {
  return {
    groupPrefix: config.KAFKA_GROUP_PREFIX,
    sessionTimeout: config.KAFKA_SESSION_TIMEOUT_MS,
    heartbeatInterval: Math.max(300, Math.floor(config.KAFKA_SESSION_TIMEOUT_MS / 10)),
    rebalanceTimeout: Math.max(30_000, config.KAFKA_SESSION_TIMEOUT_MS),
    maxWaitTimeInMs: config.KAFKA_MAX_WAIT_MS,
  };
}
