import multipart from '@fastify/multipart';
import type { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

const enabled = new WeakSet<object>();

/**
 * Registers @fastify/multipart once per HTTP server (several services may need it in one
 * standalone process). Limits are applied per request by the route (`req.file({ limits })`).
 */
export function enableMultipart(host: HttpAdapterHost): void {
  const fastify = host.httpAdapter.getInstance<FastifyInstance>();
  if (enabled.has(fastify)) return;
  enabled.add(fastify);
  void fastify.register(multipart, { limits: { files: 1, fields: 20, fileSize: 50 * 1024 * 1024 } });
}
