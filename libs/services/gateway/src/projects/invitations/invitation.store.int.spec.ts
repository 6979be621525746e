import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { gatewaySchema } from '../../gateway-core.module.js';
import { ProjectInvitation } from './invitation.entity.js';
import { InvitationStore } from './invitation.store.js';

/** The invitations' token rows on PostgreSQL: only a pending, unexpired invitation is found, locked, and accepted once. */
describe('InvitationStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new InvitationStore();
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(gatewaySchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  /** An invitation whose token hash is set; its id and hash. */
  const invitation = async (
    state: { expiresInMs?: number; revoked?: boolean; accepted?: boolean } = {},
  ): Promise<{ id: string; hash: string }> => {
    const id = `inv_store_${++seq}`;
    const hash = String(seq).padStart(64, 'a');
    await ds.getRepository(ProjectInvitation).insert({
      id,
      projectId: 'prj_store',
      email: `invitee${seq}@example.com`,
      role: 'ADMIN',
      invitedBy: 'usr_owner',
      tokenHash: null,
      expiresAt: new Date(Date.now() + (state.expiresInMs ?? 60_000)),
      acceptedAt: state.accepted ? new Date() : null,
      acceptedBy: state.accepted ? 'usr_someone' : null,
      revokedAt: state.revoked ? new Date() : null,
    });
    await store.setTokenHash(ds.manager, id, hash);
    return { id, hash };
  };
  const locksAwaited = async () =>
    (
      (await ds.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      )) as { n: number }[]
    )[0]!.n;

  it('only a pending, unexpired invitation is found, by id or by its token hash', async () => {
    const found = (i: { id: string; hash: string }) =>
      ds.transaction(async (m) => [await store.lockPending(m, i.id), await store.lockRedeemable(m, i.hash)]);
    const pending = await invitation();
    expect(await found(pending)).toEqual([
      expect.objectContaining({ id: pending.id, tokenHash: pending.hash }),
      expect.objectContaining({ id: pending.id }),
    ]);
    const dead = [
      await invitation({ expiresInMs: -1_000 }),
      await invitation({ revoked: true }),
      await invitation({ accepted: true }),
    ];
    for (const i of dead) expect(await found(i)).toEqual([null, null]);
  });

  it('accepting gives the project and role once, and records who accepted', async () => {
    const { id, hash } = await invitation();
    expect(await store.accept(ds.manager, hash, 'usr_new')).toEqual({ projectId: 'prj_store', role: 'ADMIN' });
    expect(await store.accept(ds.manager, hash, 'usr_other')).toBeNull();
    expect(await ds.getRepository(ProjectInvitation).findOneByOrFail({ id })).toMatchObject({ acceptedBy: 'usr_new' });
  });

  it('a redeemable invitation stays locked until its transaction ends: a concurrent redeemer waits, then finds it spent', async () => {
    const { hash } = await invitation();
    const first = ds.createQueryRunner();
    await first.connect();
    await first.startTransaction();
    try {
      expect(await store.lockRedeemable(first.manager, hash)).not.toBeNull();
      const second = ds.transaction((m) => store.lockRedeemable(m, hash));
      await eventually(async () => (await locksAwaited()) > 0, { message: 'the second redeemer waits on the lock' });
      expect(await store.accept(first.manager, hash, 'usr_first')).not.toBeNull();
      await first.commitTransaction();
      expect(await second).toBeNull();
    } finally {
      await first.release();
    }
  });
});
