import { randomUUID } from 'node:crypto';
import { rootLogger } from '@herald/core';
import type { FastifyInstance } from 'fastify';
import { httpDuration } from '../metrics/metrics.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const REQUEST_ID_HEADER = 'x-request-id';

/** Request id: the caller's X-Request-Id when it is a UUID (the gateway forwards its own), else a new one. */
export function genRequestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && UUID.test(given) ? given : randomUUID();
}

/**
 * Per request: the id goes into the response header and the async log context (so every log line
 * carries it), and an access log line and a duration metric are written when the response is sent.
 */
export function installRequestContext(app: FastifyInstance): void {
  const access = rootLogger().child({ component: 'http' });
  app.addHook('onRequest', (req, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions?.url ?? 'unmatched';
    httpDuration.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    if (!route.startsWith('/health') && route !== '/metrics') {
      access.info(
        { requestId: req.id, method: req.method, url: req.url, route, status: reply.statusCode, durationMs: Math.round(reply.elapsedTime * 10) / 10 },
        'request completed',
      );
    }
    done();
  });
}
