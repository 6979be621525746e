import type { FieldError } from './herald.exception.js';

/**
 * The spec's standard error response, and what clients written for Plunk read besides it: a
 * top-level `message` (always `error.message`) and, on the public endpoints (`/v1/…`), Plunk's
 * documented `code` (the HTTP status) and `time` (epoch milliseconds). `error` stays the standard
 * object everywhere (docs/errors.md, "What Plunk clients read").
 */
export interface ErrorBody {
  success: false;
  /** The same text as `error.message`: the official Plunk client throws `data.message`. */
  message: string;
  error: {
    code: string;
    message: string;
    statusCode: number;
    requestId: string;
    errors?: FieldError[];
    suggestion?: string;
  };
  timestamp: string;
  /** Public endpoints only: the HTTP status, as an integer. */
  code?: number;
  /** Public endpoints only: when the error was answered, in epoch milliseconds (the same instant as `timestamp`). */
  time?: number;
}

/** The standard error's own fields, before the envelope is built around them. */
export type ErrorDetails = ErrorBody['error'];

/** The public API (`/v1/send`, `/v1/track`, `/v1/verify`, …): the paths Plunk's clients call. */
const PUBLIC_API_PREFIX = '/v1/';

/** Whether a request target (path, with or without a query string) is on the public API. */
export function isPublicApiPath(url: string | undefined): boolean {
  return url !== undefined && url.startsWith(PUBLIC_API_PREFIX);
}

/**
 * The one place an error body is put together: every answer with an error (the global filter, the
 * router's and Node's parser's refusals, the gateway's proxy, a starting process) goes through
 * `toErrorBody`, which calls this. `url` is the request target, or `undefined` when none could be
 * read (a request line Node could not parse): the public API's fields follow from it.
 */
export function errorBody(details: ErrorDetails, url: string | undefined, now: Date = new Date()): ErrorBody {
  return {
    success: false,
    message: details.message,
    error: details,
    timestamp: now.toISOString(),
    ...(isPublicApiPath(url) ? { code: details.statusCode, time: now.getTime() } : {}),
  };
}
