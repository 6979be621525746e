import { signPrincipal } from '@herald/auth';
import { PRINCIPAL_HEADER, type Principal } from '@herald/contracts';

export const TEST_INTERNAL_SECRET = 'test-internal-secret-0123456789abcdef0123456789';

/** Headers a gateway would add: the principal of a secret API key of `projectId`. */
export function principalHeaders(
  projectId: string,
  secret = TEST_INTERNAL_SECRET,
  principal?: Principal,
): Record<string, string> {
  return {
    [PRINCIPAL_HEADER]: signPrincipal(principal ?? { kind: 'api-key', projectId, keyType: 'secret' }, secret),
    'content-type': 'application/json',
  };
}
