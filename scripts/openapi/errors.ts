/** The standard error answers (docs/errors.md), each the ErrorBody schema (libs/http's `ErrorBody`). */
const error = (description: string, code: string, headers?: Record<string, unknown>, status = STATUS[code]) => ({
  description,
  ...(headers ? { headers } : {}),
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/ErrorBody' },
      example: {
        success: false,
        message: description,
        error: { code, message: description, statusCode: Number(status), requestId: 'req-8f1c2d' },
        timestamp: '2025-01-01T12:00:00.000Z',
      },
    },
  },
});

const STATUS: Record<string, number> = {
  MALFORMED_JSON: 400,
  VALIDATION_ERROR: 422,
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
  BadRequest: error('The body is not valid JSON, or the request cannot be read', 'MALFORMED_JSON'),
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

/**
 * 409, with the codes the operation's code can throw (thrown-errors.ts): another body under an
 * `Idempotency-Key`, a resource in use, a state the action does not apply to.
 */
export function conflictResponse(codes: string[]): Record<string, unknown> {
  const named = codes.map((c) => `\`${c}\``).join(', ');
  const description = `The request conflicts with the current state${named ? `: ${named}` : ''} (docs/errors.md)`;
  return error(description, codes[0] ?? 'CONFLICT', undefined, 409);
}

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
    ...(o.body ? { 400: ref('BadRequest') } : {}),
    ...(o.secured ? { 401: ref('Unauthorized'), 403: ref('Forbidden') } : {}),
    ...(o.pathParams ? { 404: ref('NotFound') } : {}),
    ...(o.body ? { 413: ref('PayloadTooLarge') } : {}),
    ...(o.input ? { 422: ref('ValidationError') } : {}),
    ...(o.projectScoped ? { 429: ref('RateLimited') } : {}),
    503: ref('ServiceUnavailable'),
    default: ref('Error'),
  };
}
