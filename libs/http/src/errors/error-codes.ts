import { CONSISTENCY_TIMEOUT } from '@herald/core';

/**
 * Herald's generic error codes (`error.code` of the standard error body), shared by every service
 * and the HTTP edge; each feature's own codes live in its errors file (`contact.errors.ts`, …).
 * All are documented in docs/errors.md. Never rename a code: integrations match on them.
 */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  MalformedJson: 'MALFORMED_JSON',
  Unauthorized: 'UNAUTHORIZED',
  InvalidApiKey: 'INVALID_API_KEY',
  InvalidCredentials: 'INVALID_CREDENTIALS',
  InvalidToken: 'INVALID_TOKEN',
  SignupsDisabled: 'SIGNUPS_DISABLED',
  ProjectRequired: 'PROJECT_REQUIRED',
  Forbidden: 'FORBIDDEN',
  ProjectDisabled: 'PROJECT_DISABLED',
  NotFound: 'RESOURCE_NOT_FOUND',
  RouteNotFound: 'ROUTE_NOT_FOUND',
  MethodNotAllowed: 'METHOD_NOT_ALLOWED',
  Conflict: 'CONFLICT',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  UriTooLong: 'URI_TOO_LONG',
  HeadersTooLarge: 'HEADERS_TOO_LARGE',
  RequestTimeout: 'REQUEST_TIMEOUT',
  MalformedMultipart: 'MALFORMED_MULTIPART',
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  ValidationError: 'VALIDATION_ERROR',
  RateLimitExceeded: 'RATE_LIMIT_EXCEEDED',
  BillingLimitExceeded: 'BILLING_LIMIT_EXCEEDED',
  ServiceUnavailable: 'SERVICE_UNAVAILABLE',
  /** A copy the route answers from has not applied the project's earlier writes in time (503, Retry-After). */
  ConsistencyTimeout: CONSISTENCY_TIMEOUT,
  InternalServerError: 'INTERNAL_SERVER_ERROR',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Code used when an HttpException from Nest or a library carries only a status. */
export const codeForStatus = (status: number): ErrorCode => {
  switch (status) {
    case 400:
      return ErrorCode.BadRequest;
    case 401:
      return ErrorCode.Unauthorized;
    case 403:
      return ErrorCode.Forbidden;
    case 404:
      return ErrorCode.NotFound;
    case 405:
      return ErrorCode.MethodNotAllowed;
    case 409:
      return ErrorCode.Conflict;
    case 408:
      return ErrorCode.RequestTimeout;
    case 413:
      return ErrorCode.PayloadTooLarge;
    case 414:
      return ErrorCode.UriTooLong;
    case 431:
      return ErrorCode.HeadersTooLarge;
    case 415:
      return ErrorCode.UnsupportedMediaType;
    case 422:
      return ErrorCode.ValidationError;
    case 429:
      return ErrorCode.RateLimitExceeded;
    case 503:
      return ErrorCode.ServiceUnavailable;
    default:
      return status >= 500 ? ErrorCode.InternalServerError : ErrorCode.BadRequest;
  }
};
