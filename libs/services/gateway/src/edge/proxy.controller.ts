import { signPrincipal } from '@herald/auth';
import { PRINCIPAL_HEADER, type Principal } from '@herald/contracts';
import { HERALD_RUNTIME, type HeraldRuntime } from '@herald/core';
import { ErrorCode, HeraldException, toErrorBody } from '@herald/http';
import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';
import { routeFor, type Upstream } from './route-table.js';

type ProxiedRequest = FastifyRequest & { principal?: Principal; rawBody?: Buffer };

const DROP = ['authorization', 'cookie', 'host', 'x-project-id', PRINCIPAL_HEADER, 'content-length'];

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
    this.upstreams = {
      contacts: settings.CONTACTS_URL!,
      sending: settings.SENDING_URL!,
      campaigns: settings.CAMPAIGNS_URL!,
      segments: settings.SEGMENTS_URL!,
      workflows: settings.WORKFLOWS_URL!,
      domains: settings.DOMAINS_URL!,
      analytics: settings.ANALYTICS_URL!,
    };
  }

  @All('*')
  forward(@Req() req: ProxiedRequest, @Res() reply: FastifyReply): void {
    const rule = routeFor(req.url)!;
    const principal = req.principal;
    const token = principal ? signPrincipal(principal, this.runtime.internalJwtSecret, 60) : undefined;
    const target = new URL(req.url, this.upstreams[rule.service]).toString();
    void reply.from(target, {
      // signed callbacks keep their exact bytes (reply-from would re-serialise parsed JSON)
      ...(req.rawBody ? { body: req.rawBody, contentType: String(req.headers['content-type'] ?? 'application/octet-stream') } : {}),
      rewriteRequestHeaders: (_req, headers) => {
        const out: Record<string, string | string[] | undefined> = { ...headers };
        for (const h of DROP) delete out[h];
        if (token) out[PRINCIPAL_HEADER] = token;
        out['x-request-id'] = String(req.id);
        return out as never;
      },
      onError: (r, { error }) => {
        const unavailable = new HeraldException(503, ErrorCode.ServiceUnavailable, `The ${rule.service} service is unavailable`, {
          suggestion: 'Retry shortly.',
        });
        const { status, body } = toErrorBody(unavailable, String(req.id));
        void error;
        void r.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
      },
    });
  }
}
