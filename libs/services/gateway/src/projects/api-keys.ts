import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyKind } from './api-key.entity.js';

/** `sk_` or `pk_` followed by 48 lowercase hex characters (24 random bytes). */
export const API_KEY_PATTERN = /^(sk|pk)_[0-9a-f]{48}$/;

export interface GeneratedKey {
  key: string;
  hash: string;
  prefix: string;
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function generateApiKey(kind: ApiKeyKind): GeneratedKey {
  const key = `${kind === 'secret' ? 'sk' : 'pk'}_${randomBytes(24).toString('hex')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, 10) };
}
