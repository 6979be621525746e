import { randomUUID } from 'node:crypto';
import { contextOf, logContext, rootLogger, runInSpan, SpanKind, startSpan, tracingEnabled } from '@herald/core';
import type { Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { httpDuration } from '../metrics/metrics.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const REQUEST_ID_HEADER = 'x-request-id';

/** The request's server span while tracing is on (ADR 0019). */
const SPAN = Symbol('herald.span');
type Traced = { [SPAN]?: Span };

/** Request id: the caller's X-Request-Id when it is a UUID (the gateway forwards its own), else a new one. */
export function genRequestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && UUID.test(given) ? given : randomUUID();
}

/**
 * Per request: the id goes into the response header and the async log context (so every log line
 * written while handling it carries the id; the guard adds the project once a credential names it),
 * and an access log line and a duration metric are written when the response is sent.
 *
 * The context is entered in a Fastify hook rather than a Nest interceptor: Nest runs a route
 * without RxJS when it has no interceptor (without it, /v1/track's capacity went from about 2,200
 * to 2,500 events/s).
 * `preHandler` is the last hook before the route handler (guards, pipes, controller), which Fastify
 * calls from `done`, so everything it starts runs in the context; body parsing, before it, is not.
 *
 * Traces (ADR 0019): with tracing on, each request is a server span, a child of the caller's W3C
 * `traceparent` header when it sends one (the gateway and internal calls do), active from
 * `preHandler` on and ended with the response. With tracing off, a boolean test per hook.
 */
export function installRequestContext(app: FastifyInstance): void {
  const access = rootLogger().child({ component: 'http' });
  app.addHook('onRequest', (req, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, req.id);
    if (tracingEnabled()) (req as Traced)[SPAN] = serverSpan(req);
    done();
  });
  app.addHook('preHandler', (req, _reply, done) => {
    const run = () => logContext.run({ requestId: String(req.id), correlationId: String(req.id) }, done);
    const span = (req as Traced)[SPAN];
    if (span) runInSpan(span, run, contextOf(req.headers.traceparent));
    else run();
  });
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions?.url ?? 'unmatched';
    httpDuration.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    const span = (req as Traced)[SPAN];
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: 2 }); // ERROR
      span.end();
    }
    if (!route.startsWith('/health')) {
      access.info(
        {
          requestId: req.id,
          method: req.method,
          url: req.url,
          route,
          status: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request completed',
      );
    }
    done();
  });
}

/** A request's server span: `<method> <route>` (the path for a wildcard route: the gateway's proxy). */
function serverSpan(req: {
  method: string;
  url: string;
  id: unknown;
  headers: Record<string, string | string[] | undefined>;
  routeOptions?: { url?: string };
}): Span | undefined {
  const route = req.routeOptions?.url;
  const path = req.url.split('?', 1)[0]!;
  if (path.startsWith('/health') || path === '/metrics') return undefined; // probes and scrapes: no traces
  const name = !route || route.includes('*') ? path : route;
  return startSpan(`${req.method} ${name}`, {
    kind: SpanKind.SERVER,
    parent: contextOf(req.headers.traceparent),
    attributes: {
      'http.request.method': req.method,
      'url.path': path,
      ...(route ? { 'http.route': route } : {}),
      'herald.request_id': String(req.id),
    },
  });
}
