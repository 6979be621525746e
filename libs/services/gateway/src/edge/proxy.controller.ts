import { signPrincipal } from '@herald/auth';
import { PRINCIPAL_HEADER, type Principal } from '@herald/contracts';
import { HERALD_RUNTIME, UPSTREAMS, type HeraldRuntime } from '@herald/core';
import { BodyLimit, ErrorCode, HeraldException, SEND_BODY_LIMIT, toErrorBody } from '@herald/http';
import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_SETTINGS, upstreamUrl, type GatewaySettings } from '../gateway.settings.js';
import { BODY_TOO_LARGE } from './pass-through-bodies.js';
import { routeFor, type Upstream } from './route-table.js';

type ProxiedRequest = FastifyRequest & { principal?: Principal; [BODY_TOO_LARGE]?: boolean };

// The body is forwarded unchanged (streamProxiedBodies), so its content-length still holds.
const DROP = ['authorization', 'cookie', 'host', 'x-project-id', PRINCIPAL_HEADER];

/**
 * Distributed mode only: forwards every project-scoped path to the service that owns it, after the
 * guard authenticated and rate-limited it, with the principal as a 60-second JWT the service
 * verifies. The caller's key and cookies never reach the services.
 */
@Controller()
export class ProxyController {
  private readonly upstreams: Record<Upstream, string>;

  constructor(
    @Inject(GATEWAY_SETTINGS) settings: GatewaySettings,
    @Inject(HERALD_RUNTIME) private readonly runtime: HeraldRuntime,
  ) {
    this.upstreams = Object.fromEntries(UPSTREAMS.map((s) => [s, upstreamUrl(settings, s)!])) as Record<
      Upstream,
      string
    >;
  }

  /** As large as the largest upstream body (/v1/send's 40 MB); each service enforces its own route's limit. */
  @All('*')
  @BodyLimit(SEND_BODY_LIMIT)
  forward(@Req() req: ProxiedRequest, @Res() reply: FastifyReply): void {
    const rule = routeFor(req.url)!;
    const principal = req.principal;
    const token = principal ? signPrincipal(principal, this.runtime.internalJwtSecret, 60) : undefined;
    const target = new URL(req.url, this.upstreams[rule.service]).toString();
    // The body (req.body) is the request's stream, which reply-from pipes to the service.
    void reply.from(target, {
      rewriteRequestHeaders: (_req, headers) => {
        const out: Record<string, string | string[] | undefined> = { ...headers };
        for (const h of DROP) delete out[h];
        if (token) out[PRINCIPAL_HEADER] = token;
        out['x-request-id'] = String(req.id);
        return out as never;
      },
      onError: (r, { error }) => {
        const failure = req[BODY_TOO_LARGE]
          ? new HeraldException(413, ErrorCode.PayloadTooLarge, 'The request body is too large')
          : new HeraldException(503, ErrorCode.ServiceUnavailable, `The ${rule.service} service is unavailable`, {
              suggestion: 'Retry shortly.',
            });
        const { status, body } = toErrorBody(failure, String(req.id));
        void error;
        void r.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
      },
    });
  }
}
