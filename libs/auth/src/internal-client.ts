import { PRINCIPAL_HEADER } from '@herald/contracts';
import {
  createLogger,
  currentTraceparent,
  decodeWritten,
  DomainError,
  encodePositions,
  POSITIONS_HEADER,
  positionsContext,
  WRITTEN_HEADER,
  type FieldProblem,
  type Observed,
} from '@herald/core';
import { ErrorCode, kindForStatus } from '@herald/http';
import { signPrincipal } from './principal-token.js';

const log = createLogger('internal-client');

export interface InternalCallOptions {
  /** What the callee must observe (default: the current request's positions and writes, if any). */
  observe?: Observed;
  /** This call's own deadline (default: the client's). */
  timeoutMs?: number;
}

/**
 * Calls another service's `/internal` routes on a project's behalf, where an answer must be
 * immediate (architecture rule 1): a short-lived principal `{kind: 'service'}` signed with the
 * internal secret, JSON in and out. In standalone mode the base URL is this very process.
 * A 4xx answer is re-thrown as the same domain error (code, kind, field errors: a caller's
 * validation errors reach the client unchanged, and a job branches on the code), and so is a callee's
 * `CONSISTENCY_TIMEOUT`; anything else is `unavailable`.
 *
 * Read-your-writes: the call carries what the current request must observe and has written so far
 * (`x-herald-positions`: the callee may answer from a copy of those writes), and what the callee's
 * answer wrote joins the request's own (`x-herald-written`), for the edge to keep. The active span's
 * W3C `traceparent` goes along (ADR 0019): the callee's server span is its child.
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

  async post<T>(
    projectId: string,
    path: string,
    body: unknown,
    requestId?: string,
    options: InternalCallOptions = {},
  ): Promise<T> {
    const token = signPrincipal({ kind: 'service', service: this.service, projectId }, this.secret, 60);
    const request = positionsContext.getStore();
    const observe = encodePositions(options.observe ?? request?.forCallee(projectId) ?? {});
    const traceparent = currentTraceparent();
    let res: Response;
    try {
      res = await fetch(new URL(path, await this.baseUrl()), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [PRINCIPAL_HEADER]: token,
          ...(requestId ? { 'x-request-id': requestId } : {}),
          ...(observe ? { [POSITIONS_HEADER]: observe } : {}),
          ...(traceparent ? { traceparent } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs),
      });
    } catch (err) {
      throw this.unavailable((err as Error).message);
    }
    const written = res.headers.get(WRITTEN_HEADER);
    if (written && request) request.absorb(decodeWritten(written));
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (res.ok) return parsed as T;
    const error = (
      parsed as
        { error?: { code?: string; message?: string; errors?: FieldProblem[]; suggestion?: string } } | undefined
    )?.error;
    // a callee's copy that stayed behind is the same 503 for this request (its code, its Retry-After)
    const kind =
      res.status < 500 || (res.status === 503 && error?.code === ErrorCode.ConsistencyTimeout)
        ? kindForStatus(res.status)
        : null;
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
