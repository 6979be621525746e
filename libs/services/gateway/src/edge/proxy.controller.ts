import { signPrincipal } from '@herald/auth';
import { PRINCIPAL_HEADER, type Principal } from '@herald/contracts';
import {
  currentTraceparent,
  encodePositions,
  HERALD_RUNTIME,
  ObservesWritesOf,
  POSITIONS_HEADER,
  UPSTREAMS,
  WRITTEN_HEADER,
  type HeraldRuntime,
} from '@herald/core';
import { BodyLimit, ErrorCode, HeraldException, SEND_BODY_LIMIT, toErrorBody } from '@herald/http';
import { PositionsEdge } from '@herald/messaging';
import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_SETTINGS, upstreamUrl, type GatewaySettings } from '../gateway.settings.js';
import { BODY_TOO_LARGE } from './pass-through-bodies.js';
import { routeFor, type Upstream } from './route-table.js';

type ProxiedRequest = FastifyRequest & { principal?: Principal; [BODY_TOO_LARGE]?: boolean };

// The body is forwarded unchanged (streamProxiedBodies), so its content-length still holds. A client's
// own read-your-writes headers are never passed on: the positions are the edge's.
const DROP = ['authorization', 'cookie', 'host', 'x-project-id', PRINCIPAL_HEADER, POSITIONS_HEADER, WRITTEN_HEADER];

/**
 * Distributed mode only: forwards every project-scoped path to the service that owns it, after the
 * guard authenticated and rate-limited it, with the principal as a 60-second JWT the service
 * verifies. The caller's key and cookies never reach the services. The project's positions go with
 * it (`x-herald-positions`: the service waits until the copies it answers from have applied them),
 * and the positions its answer wrote are kept before the answer leaves (PositionsEdge).
 */
@ObservesWritesOf() // the service behind waits, not the gateway
@Controller()
export class ProxyController {
  private readonly upstreams: Record<Upstream, string>;

  constructor(
    @Inject(GATEWAY_SETTINGS) settings: GatewaySettings,
    @Inject(HERALD_RUNTIME) private readonly runtime: HeraldRuntime,
    private readonly positions: PositionsEdge,
  ) {
    this.upstreams = Object.fromEntries(UPSTREAMS.map((s) => [s, upstreamUrl(settings, s)!])) as Record<
      Upstream,
      string
    >;
  }

  /** As large as the largest upstream body (/v1/send's 40 MB); each service enforces its own route's limit. */
  @All('*')
  @BodyLimit(SEND_BODY_LIMIT)
  async forward(@Req() req: ProxiedRequest, @Res() reply: FastifyReply): Promise<void> {
    const rule = routeFor(req.url)!;
    const principal = req.principal;
    const token = principal ? signPrincipal(principal, this.runtime.internalJwtSecret, 60) : undefined;
    const observed = principal?.projectId ? encodePositions(await this.positions.observed(principal.projectId)) : '';
    const target = new URL(req.url, this.upstreams[rule.service]).toString();
    const traceparent = currentTraceparent();
    // The body (req.body) is the request's stream, which reply-from pipes to the service.
    void reply.from(target, {
      // the service's answer goes back as it is: reply-from would otherwise repeat a GET answered 503
      // with Retry-After up to ten times (a copy behind its writes answers so, after its bounded wait)
      retryDelay: () => null,
      rewriteRequestHeaders: (_req, headers) => {
        const out: Record<string, string | string[] | undefined> = { ...headers };
        for (const h of DROP) delete out[h];
        if (token) out[PRINCIPAL_HEADER] = token;
        if (observed) out[POSITIONS_HEADER] = observed;
        out['x-request-id'] = String(req.id);
        if (traceparent) out.traceparent = traceparent; // the service's span is a child of the gateway's
        return out as never;
      },
      onError: (r, { error }) => {
        const failure = req[BODY_TOO_LARGE]
          ? new HeraldException(413, ErrorCode.PayloadTooLarge, 'The request body is too large')
          : new HeraldException(503, ErrorCode.ServiceUnavailable, `The ${rule.service} service is unavailable`, {
              suggestion: 'Retry shortly.',
            });
        const { status, body } = toErrorBody(failure, String(req.id), req.url);
        void error;
        void r.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
      },
    });
  }
}
