import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_PATH_SEGMENT_LENGTH, pathTooLong } from '../request/input-limits.js';
import { ErrorCode } from './error-codes.js';
import { toErrorBody } from './error-envelope.filter.js';
import { HeraldException } from './herald.exception.js';

/** Longest request line (method, target, version) Herald reads before it answers 414. */
const MAX_REQUEST_LINE = 8 * 1024;

/** The status and code for an error Node's HTTP parser met before any route ran. */
type ClientError = Error & { code?: string; rawPacket?: unknown };

function classify(err: ClientError): HeraldException {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new HeraldException(408, ErrorCode.RequestTimeout, 'The request was not received in time');
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    // Node counts the request line into the header size: a request line with no end in sight is a long URL
    const packet = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined;
    const lineEnd = packet ? packet.indexOf('\r\n') : -1;
    if (packet && (lineEnd === -1 ? packet.length : lineEnd) > MAX_REQUEST_LINE)
      return new HeraldException(414, ErrorCode.UriTooLong, 'The request URL is too long', {
        suggestion: 'Send long values in a request body rather than in the URL.',
      });
    return new HeraldException(431, ErrorCode.HeadersTooLarge, 'The request headers are too large', {
      suggestion: 'Send fewer or shorter headers (cookies included).',
    });
  }
  if (err.code === 'HPE_URI_TOO_LONG' || err.code === 'HPE_INVALID_URL' || err.code === 'HPE_INVALID_METHOD')
    return new HeraldException(400, ErrorCode.BadRequest, 'The request line is malformed');
  return new HeraldException(400, ErrorCode.BadRequest, 'The request is not valid HTTP');
}

/**
 * Fastify's `clientErrorHandler`: an error Node's HTTP parser met before any route ran (headers
 * too large, a URL too long, a timeout, garbage) leaves in the standard error body, then the
 * connection closes (the parser cannot find the next request in it).
 */
export function answerClientError(err: ClientError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const requestId = randomUUID();
    const { status, body } = toErrorBody(classify(err), requestId, requestTarget(err.rawPacket));
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${statusText(status)}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(err);
}

/**
 * The target of the request line Node could not finish (`POST /v1/send?… HTTP/1.1`), from the start
 * of the bytes it read: enough to tell the public API's paths, whatever follows. `undefined` when the
 * line does not start with a method and a path.
 */
export function requestTarget(rawPacket: unknown): string | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  const start = rawPacket.subarray(0, 256).toString('latin1');
  return /^[A-Z]+ (?:https?:\/\/[^/\s]*)?(\/[^\s]*)/.exec(start)?.[1];
}

const statusText = (status: number): string =>
  ({ 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' })[
    status
  ] ?? 'Error';

/**
 * Fastify's `frameworkErrors`: what the router refuses before any hook, guard or route runs (a path
 * parameter over {@link MAX_PATH_SEGMENT_LENGTH}, a path that is not valid percent-encoding) leaves
 * in the standard error body. Fastify's own answer echoed the whole path (3 KB and more) outside it;
 * this one repeats nothing of the path.
 */
export function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const refusal =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? pathTooLong()
      : error.code === 'FST_ERR_BAD_URL'
        ? new HeraldException(400, ErrorCode.BadRequest, 'The request path is not valid percent-encoding')
        : error;
  const { status, body, headers } = toErrorBody(refusal, String(request.id), request.url);
  void reply
    .status(status)
    .headers({ ...headers, 'x-request-id': String(request.id), 'content-type': 'application/json; charset=utf-8' })
    .send(body);
}

/**
 * While the server closes (graceful shutdown), a request still arriving on an open connection is
 * answered 503 `SERVICE_UNAVAILABLE` in the standard error body, with `Retry-After` and
 * `Connection: close`, before any guard or route runs. (Fastify's own `return503OnClosing`, which
 * this replaces, answered a body of its own.)
 */
export function answerWhileClosing(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    const stopping = new HeraldException(503, ErrorCode.ServiceUnavailable, 'The service is shutting down', {
      suggestion: 'Retry shortly.',
    });
    const { status, body } = toErrorBody(stopping, String(request.id), request.url);
    void reply
      .status(status)
      .headers({ 'retry-after': '1', connection: 'close', 'content-type': 'application/json; charset=utf-8' })
      .send(body);
  });
}
