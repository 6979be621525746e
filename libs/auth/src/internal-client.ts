import { PRINCIPAL_HEADER } from '@herald/contracts';
import { ErrorCode, HeraldException, type FieldError } from '@herald/http';
import { signPrincipal } from './principal-token.js';

/**
 * Calls another service's `/internal` routes on a project's behalf, where an answer must be
 * immediate (architecture rule 1): a short-lived principal `{kind: 'service'}` signed with the
 * internal secret, JSON in and out. In standalone mode the base URL is this very process.
 * A 4xx answer is re-thrown as the same Herald error (so a caller's validation errors reach the
 * client unchanged); anything else is 503.
 */
export class InternalClient {
  constructor(
    private readonly service: string,
    private readonly target: string,
    private readonly baseUrl: () => string,
    private readonly secret: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async post<T>(projectId: string, path: string, body: unknown, requestId?: string): Promise<T> {
    const token = signPrincipal({ kind: 'service', service: this.service, projectId }, this.secret, 60);
    let res: Response;
    try {
      res = await fetch(new URL(path, this.baseUrl()), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: token, ...(requestId ? { 'x-request-id': requestId } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw this.unavailable((err as Error).message);
    }
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (res.ok) return parsed as T;
    const error = (parsed as { error?: { code?: string; message?: string; errors?: FieldError[]; suggestion?: string } } | undefined)?.error;
    if (res.status >= 400 && res.status < 500 && error?.code) {
      throw new HeraldException(res.status, error.code, error.message ?? 'Request refused', {
        ...(error.errors ? { errors: error.errors } : {}),
        ...(error.suggestion ? { suggestion: error.suggestion } : {}),
      });
    }
    throw this.unavailable(`${res.status} ${error?.message ?? ''}`.trim());
  }

  private unavailable(detail: string): HeraldException {
    return new HeraldException(503, ErrorCode.ServiceUnavailable, `The ${this.target} service is unavailable (${detail})`, { suggestion: 'Retry shortly.' });
  }
}
