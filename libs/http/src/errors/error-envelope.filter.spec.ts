import { DomainError, invalidInput, type DomainErrorKind } from '@herald/core';
import type { ArgumentsHost } from '@nestjs/common';
import { ErrorEnvelopeFilter, kindForStatus, statusForKind, toErrorBody } from './error-envelope.filter.js';

const REQUEST_ID = '0b7c3c52-8a55-4b0a-9d8e-2f1e9a6c1d11';

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
    const { status: answered, body, headers } = toErrorBody(error, REQUEST_ID);
    expect(answered).toBe(status);
    expect(body).toEqual({
      success: false,
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
    const { body } = toErrorBody(new DomainError('not_found', 'CONTACT_NOT_FOUND', 'Contact cnt_1 was not found'), 'r');
    expect(body.error.suggestion).toBe('Check the path and the resource id.');
  });

  it('carries field errors of an invalid input as error.errors (VALIDATION_ERROR, 422)', () => {
    const errors = [{ field: 'data.plan', message: 'plan must be a string', code: 'invalid_type' }];
    const { status, body } = toErrorBody(invalidInput(errors), REQUEST_ID);
    expect(status).toBe(422);
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors });
  });

  it('leaves out an empty list of field errors', () => {
    const { body } = toErrorBody(
      new DomainError('invalid', 'VALIDATION_ERROR', 'Validation failed', { errors: [] }),
      'r',
    );
    expect(body.error).not.toHaveProperty('errors');
  });

  it.each([
    [30, '30'],
    [2.1, '3'],
    [-5, '0'],
  ])('retryAfterSeconds %d becomes Retry-After: %s', (seconds, header) => {
    const limited = new DomainError('limited', 'RATE_LIMIT_EXCEEDED', 'Too many', { retryAfterSeconds: seconds });
    expect(toErrorBody(limited, REQUEST_ID).headers).toEqual({ 'retry-after': header });
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
    const { status, body, headers } = toErrorBody(down, REQUEST_ID);
    expect(status).toBe(503);
    expect(body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The contacts service is unavailable' });
    expect(headers).toEqual({ 'retry-after': '5' });
  });

  it('any other 5xx leaks neither its message nor its code', () => {
    const { status, body } = toErrorBody(new Error('secret internals: password=hunter2 at db.ts:42'), REQUEST_ID);
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
    const { status, body } = toErrorBody(error, REQUEST_ID);
    expect(status).toBe(400);
    expect(body.error.code).toBe('MALFORMED_MULTIPART');
  });
});
