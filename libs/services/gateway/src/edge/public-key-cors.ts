import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { routeFor } from './route-table.js';

const installed = new WeakSet<object>();

/**
 * Browsers call the public-key routes (`/v1/track` with `pk_`) from any site: answer their CORS
 * preflight and let them read the answer. No cookies are involved (`Allow-Credentials` is never
 * sent), so a wildcard origin exposes nothing a page could not already send with the public key.
 */
@Injectable()
export class PublicKeyCors implements OnModuleInit {
  constructor(private readonly http: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.http.httpAdapter.getInstance<FastifyInstance>();
    if (installed.has(fastify)) return;
    installed.add(fastify);
    fastify.addHook('onRequest', (req, reply, done) => {
      if (!routeFor(req.url)?.publicKey) return done();
      void reply
        .header('access-control-allow-origin', '*')
        .header(
          'access-control-expose-headers',
          'x-request-id, ratelimit-limit, ratelimit-remaining, ratelimit-reset, retry-after',
        );
      if (req.method !== 'OPTIONS') return done();
      void reply
        .status(204)
        .header('access-control-allow-methods', 'POST, OPTIONS')
        .header('access-control-allow-headers', 'authorization, content-type, idempotency-key')
        .header('access-control-max-age', '86400')
        .send();
    });
  }
}
