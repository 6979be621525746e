import { Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Set on a proxied request whose body went over the limit while it streamed to the service. */
export const BODY_TOO_LARGE = Symbol('herald:body-too-large');
type StreamedRequest = FastifyRequest & { [BODY_TOO_LARGE]?: boolean };

const httpError = (statusCode: number, code: string, message: string): Error =>
  Object.assign(new Error(message), { statusCode, code });

const tooLarge = (limit: number) =>
  httpError(413, 'FST_ERR_CTP_BODY_TOO_LARGE', `Request body is larger than ${limit} bytes`);

const mediaType = (req: FastifyRequest): string =>
  String(req.headers['content-type'] ?? '')
    .split(';', 1)[0]!
    .trim()
    .toLowerCase();

/**
 * Request bodies at the gateway of distributed mode. A body bound for a service (`isProxied`) is
 * never parsed here: its stream goes to the service byte for byte (multipart uploads, CSV, images,
 * JSON, signed webhooks alike), counted against the body limit on the way. The gateway's own routes
 * (accounts, projects) read JSON as Fastify would.
 */
export function streamProxiedBodies(fastify: FastifyInstance, isProxied: (req: FastifyRequest) => boolean): void {
  // The route's own limit (`@BodyLimit` on the proxy: /v1/send's 40 MB), else the server's.
  const fallback = fastify.initialConfig.bodyLimit ?? 1024 * 1024;
  const limitOf = (req: FastifyRequest): number => req.routeOptions?.bodyLimit ?? fallback;
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded'])
    if (fastify.hasContentTypeParser(type)) fastify.removeContentTypeParser(type);

  fastify.addContentTypeParser('*', (req, payload, done) => {
    const limit = limitOf(req);
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) return done(tooLarge(limit), undefined);
    if (isProxied(req)) return done(null, limited(req as StreamedRequest, payload, limit));
    if (mediaType(req) !== 'application/json')
      return done(
        httpError(415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE', `Unsupported Media Type: ${mediaType(req) || 'none'}`),
        undefined,
      );
    readAll(payload, limit).then(
      (text) => parseJson(req, text, done),
      (err: Error) => done(err, undefined),
    );
  });

  // An answer given before the body was read (the key was refused, the service answered early)
  // waits until the client has sent it all, so the client reads the answer instead of EPIPE.
  // (Not past the limit: a body too large is cut off with the connection.)
  fastify.addHook('onSend', async (req) => {
    if (req.raw.complete || req.raw.readableEnded || !isProxied(req)) return;
    if ((req as StreamedRequest)[BODY_TOO_LARGE] || Number(req.headers['content-length'] ?? 0) > limitOf(req)) return;
    await drained(req.raw);
  });
}

function drained(raw: Readable): Promise<void> {
  return new Promise((resolve) => {
    raw.once('end', resolve);
    raw.once('close', resolve);
    raw.once('error', () => resolve());
    raw.unpipe();
    raw.resume();
  });
}

/** The body as it streams to the service; fails (and marks the request) past `limit` bytes. */
function limited(req: StreamedRequest, payload: Readable, limit: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) {
        req[BODY_TOO_LARGE] = true;
        return callback(tooLarge(limit));
      }
      callback(null, chunk);
    },
  });
  payload.on('error', (err) => counter.destroy(err));
  return payload.pipe(counter);
}

async function readAll(payload: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      payload.resume();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
