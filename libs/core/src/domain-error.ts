/**
 * Errors of Herald's business code: use cases, domain functions, jobs and event handlers throw
 * these and know nothing of HTTP. Each carries a stable `code` (`CONTACT_NOT_FOUND`,
 * `CAMPAIGN_NOT_EDITABLE`, …: integrators match on it, so never rename one) and a `kind`, the class
 * of failure. The one mapping at the HTTP edge (`libs/http`, ErrorEnvelopeFilter) turns the kind
 * into a status and the error into the spec's error body; a job or a consumer branches on the code
 * or the kind, never on a status.
 */
export type DomainErrorKind =
  /** The request is malformed in a way no field names (400). */
  | 'bad_request'
  /** One or more fields are invalid (422); `errors` names them. */
  | 'invalid'
  /** No or bad credentials (401). */
  | 'unauthenticated'
  /** The caller may not do this (403). */
  | 'forbidden'
  /** The resource does not exist in the caller's project (404). */
  | 'not_found'
  /** The resource's state does not allow it (409). */
  | 'conflict'
  /** Too large to accept (413). */
  | 'too_large'
  /** A rate or a cap was reached (429). */
  | 'limited'
  /** A dependency is down or the process is stopping (503). */
  | 'unavailable';

/** One field's problem: `field` is the path in the request (`data.plan`, `filters.conditions[1].value`). */
export interface FieldProblem {
  field: string;
  message: string;
  code: string;
}

export interface DomainErrorDetails {
  /** Field-level problems (kind `invalid`). */
  errors?: FieldProblem[];
  /** What the caller can do about it. */
  suggestion?: string;
  /** When to try again (kind `limited` or `unavailable`). */
  retryAfterSeconds?: number;
}

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly details: DomainErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** Whether `err` is a domain error with this code (a job or consumer deciding what to do). */
  static is(err: unknown, code: string): err is DomainError {
    return err instanceof DomainError && err.code === code;
  }
}

/** `<RESOURCE>_NOT_FOUND` for a resource of the caller's project that does not exist. */
export function notFoundError(
  resource: string,
  id?: string,
  code = `${resource.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_NOT_FOUND`,
): DomainError {
  return new DomainError('not_found', code, id ? `${resource} ${id} was not found` : `${resource} was not found`, {
    suggestion: `Check the ${resource.toLowerCase()} id and that it belongs to this project.`,
  });
}

/** Field-level validation failure; the body's code is the spec's VALIDATION_ERROR. */
export function invalidInput(
  errors: FieldProblem[],
  message = 'Validation failed',
  code = 'VALIDATION_ERROR',
): DomainError {
  return new DomainError('invalid', code, message, {
    errors,
    suggestion: 'Fix the fields listed in error.errors and send the request again.',
  });
}

/** The resource's state refuses the operation. */
export function conflictError(code: string, message: string, suggestion?: string): DomainError {
  return new DomainError('conflict', code, message, suggestion ? { suggestion } : {});
}

/** The caller may not do this. */
export function forbiddenError(code: string, message: string, suggestion?: string): DomainError {
  return new DomainError('forbidden', code, message, suggestion ? { suggestion } : {});
}
