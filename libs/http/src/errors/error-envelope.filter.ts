import { createLogger, DomainError, type DomainErrorKind } from '@herald/core';
import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from './database-unavailable.js';
import { codeForStatus, ErrorCode } from './error-codes.js';
import { errorBody, type ErrorBody } from './error-body.js';
import { HeraldException } from './herald.exception.js';

const log = createLogger('http.errors');

const SUGGESTIONS: Partial<Record<number, string>> = {
  400: 'Check that the body is valid JSON and the parameters are well-formed.',
  401: 'Send Authorization: Bearer <key> with a valid API key.',
  404: 'Check the path and the resource id.',
  429: 'Wait for the time given in Retry-After, then retry.',
  500: 'Retry later; if it persists, contact support with the requestId.',
};

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
}

/**
 * The one global exception filter: every error leaves as the spec's body, with the request id, and
 * no internals (stack traces, SQL) for 5xx. Malformed JSON is 400, unknown routes 404.
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const ctx = host.switchToHttp();
    const request = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    const { status, body, headers } = toErrorBody(exception, String(request.id), request.url);
    // a log level per class of error: a deliberate 503 (a dependency down, a copy behind, a feature
    // not enabled) is an answer, which anyone may cause (an unconfigured webhook): one warn line
    // without a stack; only an unexpected failure is an error with its stack
    if (status === 503)
      log.warn('request answered 503', {
        code: body.error.code,
        message: body.error.message,
        method: request.method,
        route: request.routeOptions?.url,
      });
    else if (status >= 500)
      log.error('request failed', { err: describe(exception), method: request.method, url: request.url, status });
    for (const [k, v] of Object.entries(headers)) void reply.header(k, v);
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}

/** The one mapping from a domain error's kind to an HTTP status. */
export const statusForKind: Record<DomainErrorKind, number> = {
  bad_request: 400,
  invalid: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  limited: 429,
  unavailable: 503,
};

/** The kind an HTTP status stands for (an error answered by another service over internal HTTP). */
export function kindForStatus(status: number): DomainErrorKind | null {
  for (const [kind, s] of Object.entries(statusForKind)) if (s === status) return kind as DomainErrorKind;
  return status >= 400 && status < 500 ? 'bad_request' : null;
}

/**
 * Any error, as the status, headers and body Herald answers (no internals for a 5xx). `url` is the
 * request target (`/v1/send?…`), or `undefined` when none could be read: every caller passes it, so
 * no answer can leave without the public API's fields (`errorBody`).
 */
export function toErrorBody(
  exception: unknown,
  requestId: string,
  url: string | undefined,
): { status: number; body: ErrorBody; headers: Record<string, string> } {
  let status = 500;
  let code: string = ErrorCode.InternalServerError;
  let message = 'An unexpected error occurred';
  let errors: ErrorBody['error']['errors'];
  let suggestion: string | undefined;
  let headers: Record<string, string> = {};

  if (exception instanceof DomainError) {
    status = statusForKind[exception.kind];
    code = exception.code;
    message = exception.message;
    errors = exception.details.errors;
    suggestion = exception.details.suggestion;
    if (exception.details.retryAfterSeconds !== undefined)
      headers = { 'retry-after': String(Math.max(0, Math.ceil(exception.details.retryAfterSeconds))) };
  } else if (exception instanceof HeraldException) {
    status = exception.getStatus();
    code = exception.code;
    message = exception.message;
    errors = exception.details.errors;
    suggestion = exception.details.suggestion;
    headers = exception.details.headers ?? {};
  } else if (exception instanceof HttpException && isJsonBodyError(exception.cause)) {
    status = 400;
    code = ErrorCode.MalformedJson;
    message = 'The request body is not valid JSON';
  } else if (exception instanceof HttpException) {
    status = exception.getStatus();
    code = codeForStatus(status);
    const res = exception.getResponse();
    message =
      typeof res === 'string'
        ? res
        : typeof (res as { message?: unknown }).message === 'string'
          ? String((res as { message: string }).message)
          : exception.message;
    if (status === 404 && /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /.test(message)) {
      code = ErrorCode.RouteNotFound;
      message = `Route ${message.replace(/^Cannot /, '')} does not exist`;
    }
  } else if (isMalformedMultipart(exception)) {
    status = 400;
    code = ErrorCode.MalformedMultipart;
    message = 'The multipart body is malformed (no boundary, or truncated)';
    suggestion = 'Send multipart/form-data with a boundary and the complete body (a browser FormData does both).';
  } else if (isDatabaseUnavailable(exception)) {
    // PostgreSQL restarting or out of reach: a deliberate 503, retried later, never a 500 (issue 44)
    status = 503;
    code = ErrorCode.ServiceUnavailable;
    message = 'The database is unavailable';
    suggestion = 'Retry after the time given in Retry-After.';
    headers = { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) };
  } else if (isFastifyError(exception)) {
    status = exception.statusCode!;
    if (isJsonBodyError(exception)) {
      code = ErrorCode.MalformedJson;
      message = 'The request body is not valid JSON';
    } else {
      code = codeForStatus(status);
      message = exception.message ?? message;
    }
  }
  if (status >= 500 && status !== 503) {
    // an unexpected failure: no code or message of its own leaves (503 is a deliberate answer and keeps both)
    code = ErrorCode.InternalServerError;
    message = 'An unexpected error occurred';
  }
  const body = errorBody(
    {
      code,
      message,
      statusCode: status,
      requestId,
      ...(errors && errors.length > 0 ? { errors } : {}),
      suggestion: suggestion ?? SUGGESTIONS[status] ?? SUGGESTIONS[status >= 500 ? 500 : 400]!,
    },
    url,
  );
  return { status, body, headers };
}

/** Fastify's JSON body parser failure (Nest wraps it in an HttpException whose cause it is). */
const isJsonBodyError = (e: unknown): boolean =>
  e instanceof Error &&
  (['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY'].includes(String((e as FastifyLikeError).code)) ||
    e.name === 'SyntaxError');

/** The multipart parser's errors (busboy / dicer): a body without a boundary, or cut short. */
const isMalformedMultipart = (e: unknown): boolean =>
  e instanceof Error &&
  (/^Multipart: Boundary not found$|^Boundary required$|unexpected end of multipart data$/i.test(e.message) ||
    (e as FastifyLikeError).code === 'FST_MP_PREMATURE_CLOSE');

const isFastifyError = (e: unknown): e is Error & FastifyLikeError =>
  e instanceof Error &&
  typeof (e as FastifyLikeError).statusCode === 'number' &&
  (e as FastifyLikeError).statusCode! >= 400 &&
  (e as FastifyLikeError).statusCode! < 600;

const describe = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e));
