import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { domainsSchema } from '../domains.module.js';
import { Domain } from './domain.entity.js';
import { DomainsStore } from './domains.store.js';

/** A domain's check chain number moved on, on PostgreSQL. */
describe('DomainsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new DomainsStore();

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(domainsSchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const domain = (id: string, checkSeq: number) =>
    ds.getRepository(Domain).insert({
      id,
      projectId: 'prj_1',
      domain: `${id}.example.test`,
      status: 'pending',
      verificationToken: 'token',
      dkimSelector: 'herald',
      dkimPublicKey: 'key',
      dkimPrivateKeySealed: 'sealed',
      checks: null,
      lastCheckedAt: null,
      verifiedAt: null,
      checkSeq,
    });
  const seqOf = async (id: string) => (await ds.getRepository(Domain).findOneByOrFail({ id })).checkSeq;

  it("moves the domain's check number on by one and answers it; another domain's stays", async () => {
    await domain('dom_a', 4);
    await domain('dom_b', 7);
    expect(await ds.transaction((m) => store.advanceCheckSeq(m, 'dom_a'))).toBe(5);
    expect(await ds.transaction((m) => store.advanceCheckSeq(m, 'dom_a'))).toBe(6);
    expect([await seqOf('dom_a'), await seqOf('dom_b')]).toEqual([6, 7]);
  });

  it('answers nothing for a domain that is gone', async () => {
    expect(await ds.transaction((m) => store.advanceCheckSeq(m, 'dom_none'))).toBeUndefined();
  });
});
