import replyFrom from '@fastify/reply-from';
import { captureRawBodies } from '@herald/http';
import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { GatewayModule } from '../gateway.module.js';
import { ProxyController } from './proxy.controller.js';
import { routeFor } from './route-table.js';

/** The gateway's forwarding to the other services; only in distributed mode (standalone calls them in-process). */
@Module({ imports: [GatewayModule], controllers: [ProxyController] })
export class EdgeProxyModule implements OnModuleInit {
  constructor(private readonly host: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    void fastify.register(replyFrom, { http: { requestOptions: { timeout: 60_000 } } });
    // Bodies that are not JSON (CSV and image uploads) are streamed to the service untouched.
    fastify.addContentTypeParser('*', (_req, _payload, done) => done(null));
    // Signed callbacks (relay webhooks) must reach the service byte for byte: keep their raw JSON
    captureRawBodies(fastify, (req) => routeFor(req.url)?.public === true);
  }
}
