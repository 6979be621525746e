import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { gatewaySchema } from '../gateway-core.module.js';
import { ApiKey } from '../projects/api-key.entity.js';
import { Membership } from '../projects/membership.entity.js';
import { Project } from '../projects/project.entity.js';
import { CredentialsStore } from './credentials.store.js';

/** What credentials are checked against on PostgreSQL: live keys and memberships, with the project's `disabled`. */
describe('CredentialsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let store: CredentialsStore;
  const hash = (c: string) => c.repeat(64);

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(gatewaySchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
    store = new CredentialsStore(ds);
    await ds.getRepository(Project).insert([
      { id: 'prj_on', name: 'On', disabled: false },
      { id: 'prj_off', name: 'Off', disabled: true },
    ]);
    const key = (
      id: string,
      projectId: string,
      kind: 'secret' | 'public',
      keyHash: string,
      revoked = false,
      testMode = false,
    ) => ({
      id,
      projectId,
      kind,
      keyHash,
      prefix: id,
      testMode,
      revokedAt: revoked ? new Date() : null,
    });
    await ds
      .getRepository(ApiKey)
      .insert([
        key('key_1', 'prj_on', 'secret', hash('a')),
        key('key_2', 'prj_on', 'public', hash('b')),
        key('key_3', 'prj_off', 'secret', hash('c')),
        key('key_4', 'prj_on', 'secret', hash('d'), true),
        key('key_5', 'prj_on', 'secret', hash('f'), false, true),
      ]);
    await ds.getRepository(Membership).insert([
      { projectId: 'prj_on', userId: 'usr_1', role: 'ADMIN' },
      { projectId: 'prj_off', userId: 'usr_1', role: 'OWNER' },
    ]);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it("answers many hashes at once (a repeated one too) with each live key's project, kind, test mode and disabled", async () => {
    const owners = await store.keyOwners([hash('a'), hash('b'), hash('c'), hash('a'), hash('e'), hash('f')]);
    expect(Object.fromEntries(owners)).toEqual({
      [hash('a')]: { projectId: 'prj_on', kind: 'secret', testMode: false, disabled: false },
      [hash('b')]: { projectId: 'prj_on', kind: 'public', testMode: false, disabled: false },
      [hash('c')]: { projectId: 'prj_off', kind: 'secret', testMode: false, disabled: true },
      [hash('f')]: { projectId: 'prj_on', kind: 'secret', testMode: true, disabled: false },
    });
  });

  it('a revoked key has no owner', async () => {
    expect((await store.keyOwners([hash('d')])).size).toBe(0);
  });

  it("a member's role and the project's disabled; null for a project the user is not in", async () => {
    expect(await store.member('usr_1', 'prj_on')).toEqual({ role: 'ADMIN', disabled: false });
    expect(await store.member('usr_1', 'prj_off')).toEqual({ role: 'OWNER', disabled: true });
    expect(await store.member('usr_2', 'prj_on')).toBeNull();
  });
});
