import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyKind } from './api-key.entity.js';

/**
 * `sk_` or `pk_`, then `test_` for a test key (docs/test-mode.md), then 48 lowercase hex characters
 * (24 random bytes).
 */
export const API_KEY_PATTERN = /^(sk|pk)_(test_)?[0-9a-f]{48}$/;

export interface GeneratedKey {
  key: string;
  hash: string;
  prefix: string;
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** A new key of `kind`, live or of test mode; its prefix is what the dashboard shows (`sk_3f9a1c2`, `sk_test_3f9a1c2`). */
export function generateApiKey(kind: ApiKeyKind, testMode = false): GeneratedKey {
  const head = `${kind === 'secret' ? 'sk' : 'pk'}_${testMode ? 'test_' : ''}`;
  const key = `${head}${randomBytes(24).toString('hex')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, head.length + 7) };
}
