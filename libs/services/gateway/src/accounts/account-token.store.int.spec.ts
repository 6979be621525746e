import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { gatewaySchema } from '../gateway-core.module.js';
import type { AccountTokenPurpose } from './account-token.entity.js';
import { AccountTokenStore } from './account-token.store.js';

/** The account tokens' rows on PostgreSQL: a hash is spent once, for its purpose, before it expires. */
describe('AccountTokenStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new AccountTokenStore();
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(gatewaySchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  /** A token row; its hash (the store never sees a token). */
  const token = async (userId: string, purpose: AccountTokenPurpose, expiresInMs = 60_000): Promise<string> => {
    const hash = String(++seq).padStart(64, '0');
    await store.insert(ds.manager, {
      id: `tok_store_${seq}`,
      userId,
      purpose,
      tokenHash: hash,
      expiresAt: new Date(Date.now() + expiresInMs),
      usedAt: null,
    });
    return hash;
  };
  const consume = (hash: string, purpose: AccountTokenPurpose) =>
    ds.transaction((m) => store.consume(m, hash, purpose));

  it('a token is spent once, for its own purpose, and gives its user', async () => {
    const hash = await token('usr_a', 'verify-email');
    expect(await consume(hash, 'reset-password')).toBeNull();
    expect(await consume(hash, 'verify-email')).toBe('usr_a');
    expect(await consume(hash, 'verify-email')).toBeNull();
  });

  it('an expired token is not spent', async () => {
    expect(await consume(await token('usr_b', 'reset-password', -1_000), 'reset-password')).toBeNull();
  });

  it("revoking spends only the user's unused tokens of that purpose", async () => {
    const mine = await token('usr_c', 'verify-email');
    const otherPurpose = await token('usr_c', 'reset-password');
    const otherUser = await token('usr_d', 'verify-email');
    await ds.transaction((m) => store.revokeUnused(m, 'usr_c', 'verify-email'));
    expect(await consume(mine, 'verify-email')).toBeNull();
    expect(await consume(otherPurpose, 'reset-password')).toBe('usr_c');
    expect(await consume(otherUser, 'verify-email')).toBe('usr_d');
  });
});
