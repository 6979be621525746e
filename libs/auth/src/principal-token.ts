import type { Principal } from '@herald/contracts';
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

const hmacKeys = new Map<string, KeyObject>();

/**
 * The HS256 key of a secret, made once: handed a string, jsonwebtoken first tries (and fails) to
 * parse it as an asymmetric key on every sign and verify, a fifth of a busy process's CPU.
 */
export function hmacKey(secret: string): KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) hmacKeys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  return key;
}

export const PRINCIPAL_ISSUER = 'herald-gateway';
export const PRINCIPAL_AUDIENCE = 'herald-services';

/** Signs the principal the gateway forwards to a service: short-lived, HS256, internal secret. */
export function signPrincipal(principal: Principal, secret: string, ttlSeconds = 60): string {
  return jwt.sign({ principal }, hmacKey(secret), {
    algorithm: 'HS256',
    expiresIn: ttlSeconds,
    issuer: PRINCIPAL_ISSUER,
    audience: PRINCIPAL_AUDIENCE,
  });
}

/** Shape check of a principal claim (the signature was checked by passport-jwt already). */
export function isPrincipal(value: unknown): value is Principal {
  if (!value || typeof value !== 'object') return false;
  const p = value as Record<string, unknown>;
  if (p.kind === 'api-key')
    return (
      typeof p.projectId === 'string' &&
      (p.keyType === 'secret' || p.keyType === 'public') &&
      (p.testMode === undefined || p.testMode === true)
    );
  if (p.kind === 'user') return typeof p.userId === 'string';
  if (p.kind === 'service') return typeof p.service === 'string' && typeof p.projectId === 'string';
  return false;
}

/** Verifies a principal JWT (signature, issuer, audience, expiry, shape); null when it is not valid. */
export function verifyPrincipal(token: string, secret: string): Principal | null {
  try {
    const claims = jwt.verify(token, hmacKey(secret), {
      algorithms: ['HS256'],
      issuer: PRINCIPAL_ISSUER,
      audience: PRINCIPAL_AUDIENCE,
    }) as { principal?: unknown };
    return isPrincipal(claims.principal) ? claims.principal : null;
  } catch {
    return null;
  }
}
