import { HttpException } from '@nestjs/common';
import { ErrorCode } from './error-codes.js';

export interface FieldError {
  field: string;
  message: string;
  code: string;
}

export interface HeraldExceptionOptions {
  errors?: FieldError[];
  suggestion?: string;
  headers?: Record<string, string>;
}

/**
 * An HTTP error with a stable code, mapped by the global filter to the spec's error body. Only the
 * HTTP edge (controllers, guards, pipes, filters) throws these, for conditions that exist only in
 * HTTP; business code throws a `DomainError` from `@herald/core` with its feature's code
 * (docs/errors.md; test/architecture/no-http-in-business-code.spec.ts).
 */
export class HeraldException extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly details: HeraldExceptionOptions = {},
  ) {
    super(message, status);
  }
}

export const notFound = (resource: string, id?: string): HeraldException =>
  new HeraldException(404, ErrorCode.NotFound, id ? `${resource} ${id} was not found` : `${resource} was not found`, {
    suggestion: `Check the ${resource.toLowerCase()} id and that it belongs to this project.`,
  });

export const conflict = (message: string, suggestion?: string): HeraldException =>
  new HeraldException(409, ErrorCode.Conflict, message, suggestion ? { suggestion } : {});

export const validationFailed = (errors: FieldError[], message = 'Validation failed'): HeraldException =>
  new HeraldException(422, ErrorCode.ValidationError, message, {
    errors,
    suggestion: 'Fix the fields listed in error.errors and send the request again.',
  });

export const unauthorized = (
  message = 'Authentication required',
  code: string = ErrorCode.Unauthorized,
): HeraldException =>
  new HeraldException(401, code, message, { suggestion: 'Send Authorization: Bearer <key> with a valid API key.' });

export const forbidden = (message = 'Not allowed', code: string = ErrorCode.Forbidden): HeraldException =>
  new HeraldException(403, code, message);
