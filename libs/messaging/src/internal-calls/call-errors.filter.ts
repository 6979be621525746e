import { CONSISTENCY_TIMEOUT, createLogger, DomainError } from '@herald/core';
import { ErrorCode, HeraldException, kindForStatus } from '@herald/http';

const log = createLogger('internal-calls');

/** The 503 of an owner that could not answer: its cause is logged, never answered (it may be internal text). */
export function callUnavailable(owner: string, detail: string): DomainError {
  log.warn('internal call failed', { target: owner, detail });
  return new DomainError('unavailable', ErrorCode.ServiceUnavailable, `The ${owner} service is unavailable`, {
    suggestion: 'Retry shortly.',
  });
}

/**
 * An owner's failure as its caller sees it in either mode (what an HTTP answer of it re-thrown by the
 * caller's client is): a refusal (4xx) and a copy that stayed behind keep their code, kind and
 * details; anything else is the owner being unavailable.
 */
export function asCallerSees(owner: string, err: unknown): DomainError {
  if (err instanceof DomainError)
    return err.kind !== 'unavailable' || err.code === CONSISTENCY_TIMEOUT
      ? err
      : callUnavailable(owner, `${err.code} ${err.message}`);
  if (err instanceof HeraldException) {
    const kind = err.getStatus() < 500 ? kindForStatus(err.getStatus()) : null;
    if (kind)
      return new DomainError(kind, err.code, err.message, {
        ...(err.details.errors ? { errors: err.details.errors } : {}),
        ...(err.details.suggestion ? { suggestion: err.details.suggestion } : {}),
      });
  }
  return callUnavailable(owner, err instanceof Error ? err.message : String(err));
}
