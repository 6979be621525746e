import { Transform, pipeline } from 'node:stream';
import {
  applyDecorators,
  createParamDecorator,
  Injectable,
  type ExecutionContext,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const KEEP_RAW_BODY = 'heraldKeepRawBody';
type WithRawBody = FastifyRequest & { rawBody?: Buffer };

const installed = new WeakSet<object>();

/**
 * Installs (once per HTTP server) a `preParsing` hook that copies the exact bytes of the request
 * body to `req.rawBody` — only on routes marked {@link KeepRawBody} (or chosen by `also`, e.g. the
 * gateway forwarding signed webhooks byte for byte), so other routes pay nothing.
 * The body is still parsed as usual (JSON, text) for the handler.
 */
export function captureRawBodies(fastify: FastifyInstance, also?: (req: FastifyRequest) => boolean): void {
  if (installed.has(fastify)) return;
  installed.add(fastify);
  fastify.addHook('preParsing', (req, _reply, payload, done) => {
    const marked =
      (req.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[KEEP_RAW_BODY] === true;
    if (!marked && !also?.(req)) return done(null, payload);
    const chunks: Buffer[] = [];
    const tee = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        cb(null, chunk);
      },
      flush(cb) {
        (req as WithRawBody).rawBody = Buffer.concat(chunks);
        cb();
      },
    });
    done(
      null,
      pipeline(payload, tee, () => undefined),
    );
  });
}

/** Marks a route whose handler needs the exact request bytes (signature checks): see {@link RawBody}. */
export const KeepRawBody = (): MethodDecorator => applyDecorators(RouteConfig({ [KEEP_RAW_BODY]: true }));

/**
 * The exact bytes of the request body on a {@link KeepRawBody} route (empty when there was none).
 * Fails loudly (500) when the capture hook is not installed, rather than verifying a signature over nothing.
 */
export const RawBody = createParamDecorator((_: unknown, ctx: ExecutionContext): Buffer => {
  const req = ctx.switchToHttp().getRequest<WithRawBody>();
  if (req.rawBody) return req.rawBody;
  if (req.body === undefined || req.body === null) return Buffer.alloc(0);
  throw new Error('The raw request body was not captured: is RawBodySetup provided in this module?');
});

/** Installs the raw-body hook when the module starts (a provider, so it works however the controllers are mounted). */
@Injectable()
export class RawBodySetup implements OnModuleInit {
  constructor(private readonly http: HttpAdapterHost) {}

  onModuleInit(): void {
    captureRawBodies(this.http.httpAdapter.getInstance<FastifyInstance>());
  }
}
