import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { gatewaySchema } from '../../gateway.module.js';
import { ProjectInvitation } from './invitation.entity.js';
import { InvitationTokens } from './invitation-tokens.js';
import { InvitationStore } from './invitation.store.js';

/** Invitation tokens against real PostgreSQL: single use, replaced by a new email, dead once expired or revoked. */
describe('invitation tokens (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const tokens = new InvitationTokens(new InvitationStore());
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

  const invitation = async (expiresInMs: number, revoked = false): Promise<string> => {
    const id = `inv_test_${++seq}`;
    await ds.getRepository(ProjectInvitation).insert({
      id,
      projectId: 'prj_inv',
      email: `invitee${seq}@example.com`,
      role: 'MEMBER',
      invitedBy: 'usr_owner',
      tokenHash: null,
      expiresAt: new Date(Date.now() + expiresInMs),
      acceptedAt: null,
      acceptedBy: null,
      revokedAt: revoked ? new Date() : null,
    });
    return id;
  };
  const issue = (id: string) => ds.transaction((m) => tokens.issue(m, id));
  const consume = (token: string, userId = 'usr_new') => ds.transaction((m) => tokens.consume(m, token, userId));

  it('a token is accepted once; a second acceptance finds nothing', async () => {
    const issued = (await issue(await invitation(60_000)))!;
    expect(await consume(issued.token)).toEqual({ projectId: 'prj_inv', role: 'MEMBER' });
    expect(await consume(issued.token, 'usr_other')).toBeNull();
  });

  it('a new email replaces the token: the earlier link stops working', async () => {
    const id = await invitation(60_000);
    const first = (await issue(id))!;
    const second = (await issue(id))!;
    expect(await consume(first.token)).toBeNull();
    expect(await consume(second.token)).not.toBeNull();
  });

  it('an expired or revoked invitation issues no token and accepts none', async () => {
    expect(await issue(await invitation(-1_000))).toBeNull();
    expect(await issue(await invitation(60_000, true))).toBeNull();
    const id = await invitation(60_000);
    const issued = (await issue(id))!;
    await ds.getRepository(ProjectInvitation).update({ id }, { expiresAt: new Date(Date.now() - 1_000) });
    expect(await consume(issued.token)).toBeNull();
  });
});
