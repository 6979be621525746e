import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { collectProcessMetrics } from './metrics/metrics.js';
import { genRequestId, installRequestContext } from './request/request-context.js';

export interface HttpAppOptions {
  /** Largest accepted request body (bytes); /v1/send needs room for attachments. */
  bodyLimit?: number;
  trustProxy?: boolean;
}

/**
 * A Nest application on Fastify (several times faster than Express on two cores), with request
 * ids, access logs and metrics installed. Listening and shutdown are the caller's.
 */
export async function createHttpApp(rootModule: unknown, options: HttpAppOptions = {}): Promise<NestFastifyApplication> {
  collectProcessMetrics();
  const adapter = new FastifyAdapter({
    bodyLimit: options.bodyLimit ?? 64 * 1024 * 1024,
    trustProxy: options.trustProxy ?? true,
    genReqId: genRequestId,
    requestIdHeader: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // signed links in emails carry their claims in a path parameter
    maxParamLength: 2048,
  });
  installRequestContext(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, { logger: ['error', 'warn'], bufferLogs: false });
  return app;
}
