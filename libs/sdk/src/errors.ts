/** A field the API refused, as in the error body's `error.errors` (docs/errors.md). */
export interface HeraldFieldError {
  field: string;
  message: string;
  code?: string;
}

/**
 * Every failed answer, as one exception: the HTTP `status`, the stable `code` integrators match on
 * (`VALIDATION_ERROR`, `CONTACT_NOT_FOUND`, …), the `requestId` (the body's `error.requestId`, else
 * the `X-Request-Id` header), the refused fields, and the body as received. A request that got no
 * answer (network failure, timeout) has status 0 and code `NETWORK_ERROR` or `TIMEOUT`.
 */
export class HeraldError extends Error {
  override readonly name = 'HeraldError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly errors: HeraldFieldError[];
  readonly suggestion: string | undefined;
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    requestId?: string | undefined;
    errors?: HeraldFieldError[];
    suggestion?: string | undefined;
    body?: unknown;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.errors = init.errors ?? [];
    this.suggestion = init.suggestion;
    this.body = init.body;
  }

  /** The error of a failed answer, from Herald's error body when it is one (docs/errors.md). */
  static fromResponse(status: number, headers: Headers, body: unknown): HeraldError {
    const error = isObject(body) && isObject(body.error) ? body.error : undefined;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const errors = Array.isArray(error?.errors) ? error.errors.filter(isFieldError) : [];
    return new HeraldError({
      status,
      code: text(error?.code) ?? `HTTP_${status}`,
      message: text(error?.message) ?? (isObject(body) ? text(body.message) : undefined) ?? `Herald answered ${status}`,
      requestId: text(error?.requestId) ?? headers.get('x-request-id') ?? undefined,
      errors,
      suggestion: text(error?.suggestion),
      body,
    });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isFieldError = (v: unknown): v is HeraldFieldError =>
  isObject(v) && typeof v.field === 'string' && typeof v.message === 'string';
