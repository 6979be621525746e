import type { Socket } from 'node:net';
import { DomainError, invalidInput, type DomainErrorKind } from '@herald/core';
import { HttpException, NotFoundException, type ArgumentsHost } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { answerClientError, answerWhileClosing, requestTarget } from './client-error.js';
import { errorBody, isPublicApiPath, type ErrorBody } from './error-body.js';
import { ErrorEnvelopeFilter, kindForStatus, statusForKind, toErrorBody } from './error-envelope.filter.js';
import { HeraldException } from './herald.exception.js';

const REQUEST_ID = '0b7c3c52-8a55-4b0a-9d8e-2f1e9a6c1d11';
/** A dashboard route: the standard body only. */
const DASHBOARD = '/contacts?limit=20';

/** Every kind with the status the spec gives it; `statusForKind` is typed over all kinds, this table pins the numbers. */
const STATUS: [DomainErrorKind, number][] = [
  ['bad_request', 400],
  ['unauthenticated', 401],
  ['forbidden', 403],
  ['not_found', 404],
  ['conflict', 409],
  ['too_large', 413],
  ['invalid', 422],
  ['limited', 429],
  ['unavailable', 503],
];

describe('the edge maps every DomainError kind to the spec error body', () => {
  it('covers every kind of the mapping', () => {
    expect(Object.keys(statusForKind).sort()).toEqual(STATUS.map(([k]) => k).sort());
  });

  it.each(STATUS)('kind %s answers %i with the error code, message and request id', (kind, status) => {
    const error = new DomainError(kind, 'THING_WENT_SIDEWAYS', 'The thing went sideways', { suggestion: 'Try less.' });
    const { status: answered, body, headers } = toErrorBody(error, REQUEST_ID, DASHBOARD);
    expect(answered).toBe(status);
    expect(body).toEqual({
      success: false,
      message: 'The thing went sideways',
      error: {
        code: 'THING_WENT_SIDEWAYS',
        message: 'The thing went sideways',
        statusCode: status,
        requestId: REQUEST_ID,
        suggestion: 'Try less.',
      },
      timestamp: expect.any(String),
    });
    expect(headers).toEqual({});
  });

  it('a domain error without a suggestion gets the default one of its status', () => {
    const { body } = toErrorBody(
      new DomainError('not_found', 'CONTACT_NOT_FOUND', 'Contact cnt_1 was not found'),
      'r',
      DASHBOARD,
    );
    expect(body.error.suggestion).toBe('Check the path and the resource id.');
  });

  it('carries field errors of an invalid input as error.errors (VALIDATION_ERROR, 422)', () => {
    const errors = [{ field: 'data.plan', message: 'plan must be a string', code: 'invalid_type' }];
    const { status, body } = toErrorBody(invalidInput(errors), REQUEST_ID, DASHBOARD);
    expect(status).toBe(422);
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors });
  });

  it('leaves out an empty list of field errors', () => {
    const { body } = toErrorBody(
      new DomainError('invalid', 'VALIDATION_ERROR', 'Validation failed', { errors: [] }),
      'r',
      DASHBOARD,
    );
    expect(body.error).not.toHaveProperty('errors');
  });

  it.each([
    [30, '30'],
    [2.1, '3'],
    [-5, '0'],
  ])('retryAfterSeconds %d becomes Retry-After: %s', (seconds, header) => {
    const limited = new DomainError('limited', 'RATE_LIMIT_EXCEEDED', 'Too many', { retryAfterSeconds: seconds });
    expect(toErrorBody(limited, REQUEST_ID, DASHBOARD).headers).toEqual({ 'retry-after': header });
  });

  it('the filter sends the Retry-After header with the 429', () => {
    const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
    const reply = {
      header(k: string, v: string) {
        sent.headers[k] = v;
        return reply;
      },
      status(s: number) {
        sent.status = s;
        return reply;
      },
      send(b: unknown) {
        sent.body = b;
        return reply;
      },
    };
    const host = {
      getType: () => 'http',
      switchToHttp: () => ({
        getRequest: () => ({ id: REQUEST_ID, method: 'POST', url: '/auth/login' }),
        getResponse: () => reply,
      }),
    } as unknown as ArgumentsHost;
    new ErrorEnvelopeFilter().catch(
      new DomainError('limited', 'RATE_LIMIT_EXCEEDED', 'Too many failed login attempts', { retryAfterSeconds: 42 }),
      host,
    );
    expect(sent.status).toBe(429);
    expect(sent.headers['retry-after']).toBe('42');
    expect(sent.body).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED', requestId: REQUEST_ID } });
  });

  it('503 (unavailable) keeps its code and message: a deliberate answer the caller can act on', () => {
    const down = new DomainError('unavailable', 'SERVICE_UNAVAILABLE', 'The contacts service is unavailable', {
      retryAfterSeconds: 5,
    });
    const { status, body, headers } = toErrorBody(down, REQUEST_ID, DASHBOARD);
    expect(status).toBe(503);
    expect(body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The contacts service is unavailable' });
    expect(headers).toEqual({ 'retry-after': '5' });
  });

  it('any other 5xx leaks neither its message nor its code', () => {
    const { status, body } = toErrorBody(
      new Error('secret internals: password=hunter2 at db.ts:42'),
      REQUEST_ID,
      DASHBOARD,
    );
    expect(status).toBe(500);
    expect(body.error).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: 'An unexpected error occurred' });
    expect(JSON.stringify(body)).not.toContain('hunter2');
  });
});

describe('kindForStatus: a remote answer back into a domain error (internal calls)', () => {
  it.each(STATUS)('%s round-trips through its status %i', (kind, status) => {
    expect(kindForStatus(status)).toBe(kind);
  });

  it('an unlisted 4xx is bad_request; a 500 is not a domain error', () => {
    expect(kindForStatus(418)).toBe('bad_request');
    expect(kindForStatus(500)).toBeNull();
  });
});

describe('malformed multipart bodies answer 400 in the error body, never 500', () => {
  it.each([
    ['no boundary', new Error('Multipart: Boundary not found')],
    ['a truncated body', new Error('Unexpected end of multipart data')],
    ['a truncated part', new Error('Part terminated early due to unexpected end of multipart data')],
  ])('%s', (_what, error) => {
    const { status, body } = toErrorBody(error, REQUEST_ID, DASHBOARD);
    expect(status).toBe(400);
    expect(body.error.code).toBe('MALFORMED_MULTIPART');
  });
});

/** A Fastify reply that records what is sent. */
function recordingReply() {
  const sent: { status?: number; headers: Record<string, string>; body?: ErrorBody } = { headers: {} };
  const reply = {
    header(k: string, v: string) {
      sent.headers[k] = v;
      return reply;
    },
    headers(h: Record<string, string>) {
      Object.assign(sent.headers, h);
      return reply;
    },
    status(s: number) {
      sent.status = s;
      return reply;
    },
    send(b: ErrorBody) {
      sent.body = b;
      return reply;
    },
  };
  return { sent, reply };
}

/** Every source of an error the edge answers: domain kinds, HTTP helpers, Nest's and Fastify's own, the unexpected. */
const ERRORS: [string, unknown][] = [
  ['a domain error', new DomainError('not_found', 'CONTACT_NOT_FOUND', 'Contact cnt_1 was not found')],
  ['an invalid input', invalidInput([{ field: 'to', message: 'to must be an email', code: 'invalid_string' }])],
  ['an HTTP helper', new HeraldException(401, 'INVALID_API_KEY', 'The API key is missing, malformed or not valid')],
  ['an unknown route', new NotFoundException('Cannot GET /v1/nowhere')],
  ['an HttpException of a library', new HttpException('Gone for good', 410)],
  ['a JSON body that does not parse', Object.assign(new SyntaxError('Unexpected end of JSON input'))],
  ['a Fastify error', Object.assign(new Error('Request body is too large'), { statusCode: 413 })],
  ['a malformed multipart body', new Error('Multipart: Boundary not found')],
  ['an unexpected failure', new Error('secret internals')],
];

describe('what clients written for Plunk read: a top-level message on every error body, code and time on /v1/', () => {
  const before = Date.now();

  it.each(ERRORS)('%s carries a top-level message equal to error.message, on every route', (_what, error) => {
    for (const url of ['/contacts', '/v1/send', '/analytics/campaign-stats?x=1', undefined]) {
      const { body } = toErrorBody(error, REQUEST_ID, url);
      expect([url, body.message]).toEqual([url, body.error.message]);
      expect(body.message.length).toBeGreaterThan(0);
    }
  });

  it.each(['/v1/send', '/v1/track?x=1', '/v1/verify', '/v1/nowhere'])(
    'on the public API (%s) the body also carries code = the HTTP status and time = epoch ms, beside the standard error object',
    (url) => {
      const { status, body } = toErrorBody(new HeraldException(401, 'INVALID_API_KEY', 'Bad key'), REQUEST_ID, url);
      expect(body).toEqual({
        success: false,
        code: status,
        message: 'Bad key',
        time: expect.any(Number),
        error: {
          code: 'INVALID_API_KEY',
          message: 'Bad key',
          statusCode: 401,
          requestId: REQUEST_ID,
          suggestion: expect.any(String),
        },
        timestamp: expect.any(String),
      });
      expect(Number.isInteger(body.time)).toBe(true);
      expect(body.time).toBeGreaterThanOrEqual(before);
      expect(body.time).toBeLessThanOrEqual(Date.now());
      expect(body.time).toBe(Date.parse(body.timestamp));
    },
  );

  it.each(['/contacts', '/auth/login', '/v1', '/v1x/send', '/api/v1/send', '/V1/send', undefined])(
    'anywhere else (%s) the body carries no code or time: the standard body and its message only',
    (url) => {
      const { body } = toErrorBody(
        new DomainError('invalid', 'VALIDATION_ERROR', 'Validation failed'),
        REQUEST_ID,
        url,
      );
      expect(Object.keys(body).sort()).toEqual(['error', 'message', 'success', 'timestamp']);
    },
  );

  it('the public API fields are read from the path: a query string naming /v1/ elsewhere does not count', () => {
    expect(isPublicApiPath('/contacts?next=/v1/send')).toBe(false);
    expect(isPublicApiPath('/v1/send?next=/contacts')).toBe(true);
  });

  it('builds the body around the standard error object, unchanged', () => {
    const error = { code: 'X', message: 'm', statusCode: 422, requestId: 'r', suggestion: 's' };
    const at = new Date('2026-11-21T12:00:00.000Z');
    expect(errorBody(error, '/v1/send', at)).toEqual({
      success: false,
      message: 'm',
      error,
      timestamp: '2026-11-21T12:00:00.000Z',
      code: 422,
      time: at.getTime(),
    });
  });

  it('the filter answers with the request path: a refused /v1/send carries code and time, a dashboard route does not', () => {
    const refusal = invalidInput([{ field: 'to', message: 'to must be an email', code: 'invalid_string' }]);
    const answered = (url: string) => {
      const { sent, reply } = recordingReply();
      const host = {
        getType: () => 'http',
        switchToHttp: () => ({
          getRequest: () => ({ id: REQUEST_ID, method: 'POST', url }),
          getResponse: () => reply,
        }),
      } as unknown as ArgumentsHost;
      new ErrorEnvelopeFilter().catch(refusal, host);
      return sent.body!;
    };
    expect(answered('/v1/send')).toMatchObject({ code: 422, message: 'Validation failed', time: expect.any(Number) });
    expect(answered('/contacts')).not.toHaveProperty('code');
    expect(answered('/contacts')).toMatchObject({ message: 'Validation failed' });
  });

  it('a request line Node could not finish still names its path: the public API fields follow it', () => {
    expect(requestTarget(Buffer.from(`POST /v1/send?q=${'a'.repeat(9000)} HTTP/1.1\r\n`))).toMatch(
      /^\/v1\/send\?q=a+$/,
    );
    expect(requestTarget(Buffer.from('GET http://herald.test/v1/track HTTP/1.1\r\n'))).toBe('/v1/track');
    expect(requestTarget(Buffer.from('\u0000\u0001garbage'))).toBeUndefined();
    expect(requestTarget(undefined)).toBeUndefined();

    let written = '';
    const socket = {
      destroyed: false,
      writable: true,
      write: (s: string) => (written += s),
      destroy: () => undefined,
    } as unknown as Socket;
    const tooLong = Object.assign(new Error('Header overflow'), {
      code: 'HPE_HEADER_OVERFLOW',
      rawPacket: Buffer.from(`POST /v1/send?q=${'a'.repeat(9000)}`),
    });
    answerClientError(tooLong, socket);
    const body = JSON.parse(written.slice(written.indexOf('\r\n\r\n') + 4)) as ErrorBody;
    expect(body).toMatchObject({ code: 414, message: 'The request URL is too long', error: { code: 'URI_TOO_LONG' } });
  });

  it('a request arriving while the server closes is answered 503 in the standard body, with its message', () => {
    const hooks: Record<string, (...args: unknown[]) => void> = {};
    const fastify = {
      addHook: (name: string, hook: (...args: unknown[]) => void) => (hooks[name] = hook),
    } as unknown as FastifyInstance;
    answerWhileClosing(fastify);
    const passed = { onRequest: 0 };
    const arrive = (url: string) => {
      const { sent, reply } = recordingReply();
      hooks.onRequest!({ id: REQUEST_ID, url }, reply, () => passed.onRequest++);
      return sent;
    };
    expect(arrive('/v1/send').body).toBeUndefined();
    expect(passed.onRequest).toBe(1);

    hooks.preClose!(() => undefined);
    const refused = arrive('/v1/send');
    expect(passed.onRequest).toBe(1);
    expect(refused.status).toBe(503);
    expect(refused.headers).toMatchObject({ 'retry-after': '1', connection: 'close' });
    expect(refused.body).toMatchObject({
      success: false,
      code: 503,
      message: 'The service is shutting down',
      error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is shutting down', statusCode: 503 },
    });
    expect(arrive('/contacts').body).not.toHaveProperty('code');
  });
});
