import { PRINCIPAL_HEADER } from '@herald/contracts';
import { createLogger, DomainError, type FieldProblem } from '@herald/core';
import { ErrorCode, kindForStatus } from '@herald/http';
import { signPrincipal } from './principal-token.js';

const log = createLogger('internal-client');

/**
 * Calls another service's `/internal` routes on a project's behalf, where an answer must be
 * immediate (architecture rule 1): a short-lived principal `{kind: 'service'}` signed with the
 * internal secret, JSON in and out. In standalone mode the base URL is this very process.
 * A 4xx answer is re-thrown as the same domain error (code, kind, field errors: a caller's
 * validation errors reach the client unchanged, and a job branches on the code); anything else is
 * `unavailable`.
 */
export class InternalClient {
  constructor(
    private readonly service: string,
    private readonly target: string,
    /** Resolved at each call: a standalone process's own URL is known only once it listens. */
    private readonly baseUrl: () => string | Promise<string>,
    private readonly secret: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async post<T>(projectId: string, path: string, body: unknown, requestId?: string): Promise<T> {
    const token = signPrincipal({ kind: 'service', service: this.service, projectId }, this.secret, 60);
    let res: Response;
    try {
      res = await fetch(new URL(path, await this.baseUrl()), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [PRINCIPAL_HEADER]: token,
          ...(requestId ? { 'x-request-id': requestId } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw this.unavailable((err as Error).message);
    }
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (res.ok) return parsed as T;
    const error = (
      parsed as
        { error?: { code?: string; message?: string; errors?: FieldProblem[]; suggestion?: string } } | undefined
    )?.error;
    const kind = res.status < 500 ? kindForStatus(res.status) : null;
    if (kind && error?.code) {
      const retryAfter = Number(res.headers.get('retry-after'));
      throw new DomainError(kind, error.code, error.message ?? 'Request refused', {
        ...(error.errors ? { errors: error.errors } : {}),
        ...(error.suggestion ? { suggestion: error.suggestion } : {}),
        ...(retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
      });
    }
    throw this.unavailable(`${res.status} ${error?.message ?? ''}`.trim());
  }

  /** A 503 whose message names the service only: the cause is logged, never answered (it may be internal text). */
  private unavailable(detail: string): DomainError {
    log.warn('internal call failed', { service: this.service, target: this.target, detail });
    return new DomainError('unavailable', ErrorCode.ServiceUnavailable, `The ${this.target} service is unavailable`, {
      suggestion: 'Retry shortly.',
    });
  }
}
