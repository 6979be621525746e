import type { FieldError } from './herald.exception.js';

/** The spec's standard error response. */
export interface ErrorBody {
  success: false;
  error: {
    code: string;
    message: string;
    statusCode: number;
    requestId: string;
    errors?: FieldError[];
    suggestion?: string;
  };
  timestamp: string;
}
