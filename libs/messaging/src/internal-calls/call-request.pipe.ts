import type { CallContract } from '@herald/internal-contracts';
import { DomainError } from '@herald/core';
import { createValidationPipe, ErrorCode, HeraldException } from '@herald/http';

const pipe = createValidationPipe();

const SUGGESTION = 'Fix the fields listed in error.errors and send the request again.';

/**
 * A call's request checked against its contract, as the owner will use it: a request class through
 * the same validation pipe as every route's body (transformed, unknown keys stripped), or the
 * contract's own parser. A problem is the `invalid` domain error with field errors, at either end.
 */
export async function checkCallRequest<Req extends object>(
  contract: CallContract<Req, unknown>,
  raw: unknown,
): Promise<Req> {
  if (contract.parse) {
    const parsed = contract.parse(raw);
    if (parsed.ok) return parsed.value;
    throw new DomainError('invalid', ErrorCode.ValidationError, 'Validation failed', {
      errors: parsed.problems,
      suggestion: SUGGESTION,
    });
  }
  if (!contract.request) throw new Error(`${contract.name} declares neither a request class nor a parser`);
  try {
    return (await pipe.transform(raw ?? {}, { type: 'body', metatype: contract.request })) as Req;
  } catch (err) {
    if (!(err instanceof HeraldException)) throw err;
    throw new DomainError('invalid', err.code, err.message, {
      ...(err.details.errors ? { errors: err.details.errors } : {}),
      ...(err.details.suggestion ? { suggestion: err.details.suggestion } : {}),
    });
  }
}
