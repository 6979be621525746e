/** The standard error answers (docs/errors.md), each the ErrorBody schema (libs/http's `ErrorBody`). */
const error = (description: string, code: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/ErrorBody' },
      example: {
        success: false,
        message: description,
        error: { code, message: description, statusCode: Number(STATUS[code]), requestId: 'req-8f1c2d' },
        timestamp: '2025-01-01T12:00:00.000Z',
      },
    },
  },
});

const STATUS: Record<string, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  RESOURCE_NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMIT_EXCEEDED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
};

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } };

export const ERROR_RESPONSES = {
  ValidationError: error('The request is invalid: `error.errors` names each field and its problem', 'VALIDATION_ERROR'),
  Unauthorized: error('No valid API key or session', 'UNAUTHORIZED'),
  Forbidden: error('The key or session may not do this', 'FORBIDDEN'),
  NotFound: error('No such resource in this project', 'RESOURCE_NOT_FOUND'),
  PayloadTooLarge: error('The request body is too large', 'PAYLOAD_TOO_LARGE'),
  RateLimited: error("The project's rate limit is exceeded", 'RATE_LIMIT_EXCEEDED', retryAfter),
  ServiceUnavailable: error(
    'A service or a copy it reads is not available yet: retry',
    'SERVICE_UNAVAILABLE',
    retryAfter,
  ),
  Error: error(
    'Any other error, in the same body (its `error.code` is listed in docs/errors.md)',
    'INTERNAL_SERVER_ERROR',
  ),
};

const ref = (name: keyof typeof ERROR_RESPONSES) => ({ $ref: `#/components/responses/${name}` });

/** The error answers an operation can give, from what it takes and who may call it. */
export function errorResponses(o: {
  input: boolean;
  body: boolean;
  secured: boolean;
  projectScoped: boolean;
  pathParams: boolean;
}): Record<string, unknown> {
  return {
    ...(o.input ? { 400: ref('ValidationError') } : {}),
    ...(o.secured ? { 401: ref('Unauthorized'), 403: ref('Forbidden') } : {}),
    ...(o.pathParams ? { 404: ref('NotFound') } : {}),
    ...(o.body ? { 413: ref('PayloadTooLarge') } : {}),
    ...(o.projectScoped ? { 429: ref('RateLimited') } : {}),
    503: ref('ServiceUnavailable'),
    default: ref('Error'),
  };
}
