import { createHash } from 'node:crypto';
import type { DomainError } from '@herald/core';
import type { EntityManager } from 'typeorm';
import type { AccountToken } from './account-token.entity.js';
import type { AccountTokenStore } from './account-token.store.js';
import { AccountTokens } from './account-tokens.js';

const m = {} as EntityManager;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A store that records what it is asked and spends the hashes in `live`. */
function tokensWith(live: Record<string, string> = {}) {
  const calls: unknown[][] = [];
  const store = {
    revokeUnused: async (_m: EntityManager, userId: string, purpose: string) =>
      void calls.push(['revoke', userId, purpose]),
    insert: async (_m: EntityManager, row: Omit<AccountToken, 'createdAt'>) => void calls.push(['insert', row]),
    consume: async (_m: EntityManager, hash: string, purpose: string) => {
      calls.push(['consume', hash, purpose]);
      return live[hash] ?? null;
    },
  } as unknown as AccountTokenStore;
  return { tokens: new AccountTokens(store), calls };
}

describe('AccountTokens: single-use links', () => {
  it("a new token revokes the user's unused ones of its purpose first; only its SHA-256 is stored, with the purpose's lifetime", async () => {
    const { tokens, calls } = tokensWith();
    const before = Date.now();
    const token = await tokens.issue(m, 'usr_1', 'reset-password');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(calls[0]).toEqual(['revoke', 'usr_1', 'reset-password']);
    const row = calls[1]![1] as Omit<AccountToken, 'createdAt'>;
    expect(row).toMatchObject({ userId: 'usr_1', purpose: 'reset-password', tokenHash: sha256(token), usedAt: null });
    expect(row.id).toMatch(/^tok_/);
    expect(row.expiresAt.getTime() - before).toBeGreaterThanOrEqual(3_600_000);
    expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
    const verify = tokensWith();
    await verify.tokens.issue(m, 'usr_1', 'verify-email');
    expect((verify.calls[1]![1] as AccountToken).expiresAt.getTime() - before).toBeGreaterThanOrEqual(48 * 3_600_000);
  });

  it('a token is spent by its hash and gives its user; one the store does not spend is refused with INVALID_TOKEN', async () => {
    const { tokens, calls } = tokensWith({ [sha256('t1')]: 'usr_1' });
    expect(await tokens.consume(m, 't1', 'verify-email')).toBe('usr_1');
    expect(calls).toEqual([['consume', sha256('t1'), 'verify-email']]);
    const refused = await tokens.consume(m, 't2', 'reset-password').catch((e: DomainError) => e);
    expect(refused).toMatchObject({ code: 'INVALID_TOKEN', kind: 'bad_request' });
  });
});
