import { createLogger, HealthRegistry, stopTracing } from '@herald/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

const log = createLogger('shutdown');

/**
 * Graceful shutdown on SIGTERM/SIGINT: readiness turns 503, the HTTP server stops accepting and
 * finishes in-flight requests, event consumers stop after their batch and commit offsets, outbox
 * relays publish the batch in flight, then data sources close, and the spans still batched are
 * exported. A second signal, or the timeout, forces the exit.
 */
export function installGracefulShutdown(
  app: NestFastifyApplication,
  timeoutMs: number,
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
    log.info('shutting down', { signal });
    const timer = setTimeout(() => {
      log.error('shutdown timed out: exiting', { timeoutMs });
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    try {
      app.get(HealthRegistry).markShuttingDown();
      // Stop accepting; answer what is in flight. Keep-alive connections that turn idle (or never
      // carried a request) are closed as they do, so they cannot hold the close open.
      const server = app.getHttpServer() as import('node:http').Server;
      const reaper = setInterval(() => server.closeIdleConnections(), 100);
      try {
        await app.getHttpAdapter().getInstance().close();
      } finally {
        clearInterval(reaper);
      }
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
