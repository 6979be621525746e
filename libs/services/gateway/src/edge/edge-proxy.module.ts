import replyFrom from '@fastify/reply-from';
import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { GatewayCoreModule } from '../gateway-core.module.js';
import { streamProxiedBodies } from './pass-through-bodies.js';
import { ProxyController } from './proxy.controller.js';
import { routeFor } from './route-table.js';

/** The gateway's forwarding to the other services; only in distributed mode (standalone calls them in-process). */
@Module({ imports: [GatewayCoreModule], controllers: [ProxyController] })
export class EdgeProxyModule implements OnModuleInit {
  constructor(private readonly host: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    void fastify.register(replyFrom, { http: { requestOptions: { timeout: 60_000 } } });
    // Bodies bound for a service (uploads, JSON, signed webhooks) stream to it byte for byte.
    streamProxiedBodies(fastify, (req) => routeFor(req.url) !== undefined);
  }
}
