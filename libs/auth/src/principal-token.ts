import type { Principal } from '@herald/contracts';
import jwt from 'jsonwebtoken';

export const PRINCIPAL_ISSUER = 'herald-gateway';
export const PRINCIPAL_AUDIENCE = 'herald-services';

/** Signs the principal the gateway forwards to a service: short-lived, HS256, internal secret. */
export function signPrincipal(principal: Principal, secret: string, ttlSeconds = 60): string {
  return jwt.sign({ principal }, secret, {
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
  if (p.kind === 'api-key') return typeof p.projectId === 'string' && (p.keyType === 'secret' || p.keyType === 'public');
  if (p.kind === 'user') return typeof p.userId === 'string';
  if (p.kind === 'service') return typeof p.service === 'string' && typeof p.projectId === 'string';
  return false;
}

/** Verifies a principal JWT (signature, issuer, audience, expiry, shape); null when it is not valid. */
export function verifyPrincipal(token: string, secret: string): Principal | null {
  try {
    const claims = jwt.verify(token, secret, { algorithms: ['HS256'], issuer: PRINCIPAL_ISSUER, audience: PRINCIPAL_AUDIENCE }) as { principal?: unknown };
    return isPrincipal(claims.principal) ? claims.principal : null;
  } catch {
    return null;
  }
}
