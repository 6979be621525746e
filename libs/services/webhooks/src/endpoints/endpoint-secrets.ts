import { randomBytes } from 'node:crypto';
import { openSecret, sealSecret } from '@herald/core';
import type { Endpoint } from './endpoint.entity.js';

/** The prefix Standard Webhooks libraries strip from a secret before base64-decoding it. */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64 (what Standard Webhooks libraries expect). */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** How long a rotated secret still signs beside the new one, so receivers can move to the new one without losing deliveries. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

/** A secret sealed for storage (AES-256-GCM under the service's key): never stored in the clear. */
export const sealSigningSecret = (secret: string, key: string): string => sealSecret(secret, key);

export const openSigningSecret = (sealed: string, key: string): string => openSecret(sealed, key);

/** The secrets that sign a delivery now: the endpoint's, and the one it replaced while that one's grace lasts. */
export function signingSecrets(
  endpoint: Pick<Endpoint, 'secretSealed' | 'previousSecretSealed' | 'previousSecretUntil'>,
  key: string,
  now = new Date(),
): string[] {
  const secrets = [openSigningSecret(endpoint.secretSealed, key)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now)
    secrets.push(openSigningSecret(endpoint.previousSecretSealed, key));
  return secrets;
}
