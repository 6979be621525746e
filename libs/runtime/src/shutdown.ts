import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createLogger, HealthRegistry, stopTracing } from '@herald/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

const log = createLogger('shutdown');

/**
 * Graceful shutdown on SIGTERM/SIGINT: the HTTP server stops serving ({@link stopServing}), event
 * consumers stop after their batch and commit offsets, outbox relays publish the batch in flight,
 * then data sources close, and the spans still batched are exported. A second signal, or the
 * timeout, forces the exit.
 */
export function installGracefulShutdown(
  app: NestFastifyApplication,
  settings: { timeoutMs: number; drainMs: number },
  after?: () => Promise<void>,
): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn('second signal: exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    const started = Date.now();
    log.info('shutting down', { signal, drainMs: settings.drainMs });
    const timer = setTimeout(() => {
      log.error('shutdown timed out: exiting', { timeoutMs: settings.timeoutMs });
      process.exit(1);
    }, settings.timeoutMs);
    timer.unref();
    try {
      await stopServing(
        app.getHttpServer() as Server,
        app.get(HealthRegistry),
        () => app.getHttpAdapter().getInstance().close(),
        settings.drainMs,
      );
      await Promise.all(app.getMicroservices().map((m) => m.close()));
      await app.close();
      await after?.();
      await stopTracing();
      log.info('shutdown complete', { durationMs: Date.now() - started });
      process.exit(0);
    } catch (err) {
      log.error('shutdown failed', { err: String(err) });
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * The HTTP side of a graceful shutdown, in the order a rolling restart needs it:
 * 1. readiness turns 503, and from then on every answer carries `Connection: close`: a keep-alive
 *    client (the gateway's pool to this service, a layer-4 balancer's pinned connection) is served
 *    and leaves, its next request opening a connection its balancer gives to a ready instance;
 * 2. for `drainMs` the process keeps accepting and serving, while its balancers see readiness fail
 *    (a probe period or two; 0 where a preStop sleep held SIGTERM back while they did);
 * 3. the server stops accepting and finishes in-flight requests (`close`: Fastify's). Keep-alive
 *    connections that turn idle (or never carried a request) are closed as they do, so they cannot
 *    hold the close open.
 */
export async function stopServing(
  server: Server,
  health: HealthRegistry,
  close: () => Promise<unknown>,
  drainMs: number,
): Promise<void> {
  health.markShuttingDown();
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    res.shouldKeepAlive = false;
  });
  if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  const reaper = setInterval(() => server.closeIdleConnections(), 100);
  try {
    await close();
  } finally {
    clearInterval(reaper);
  }
}
