import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { gatewaySchema } from '../gateway-core.module.js';
import { MeteredEmail } from '../shared/metered-email.entity.js';
import { MeteredEmailStore, type MeteredSend } from './metered-email.store.js';

/** The metered emails on PostgreSQL: one row per email, new ones told apart, marks kept once, old rows deleted in chunks. */
describe('MeteredEmailStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new MeteredEmailStore();
  const t0 = new Date('2026-05-10T12:00:00Z');
  const later = new Date('2026-05-10T13:00:00Z');

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(gatewaySchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const send = (emailId: string, over: Partial<MeteredSend> = {}): MeteredSend => ({
    emailId,
    projectId: 'prj_m',
    category: 'transactional',
    at: t0,
    senderDomain: null,
    ...over,
  });
  const row = (emailId: string) => ds.getRepository(MeteredEmail).findOneByOrFail({ emailId });

  it('records a run with one statement and returns only the emails it did not know', async () => {
    expect(await store.record(ds.manager, [send('eml_1'), send('eml_2', { category: 'campaign' })], false)).toEqual([
      'eml_1',
      'eml_2',
    ]);
    expect(await store.record(ds.manager, [send('eml_2'), send('eml_3')], false)).toEqual(['eml_3']);
    expect(await row('eml_2')).toMatchObject({ category: 'campaign', sentAt: t0, bouncedAt: null });
  });

  it('a bounce marks the email once (its first time stays), and a sender domain learnt later is kept', async () => {
    await store.record(ds.manager, [send('eml_b')], false);
    await store.record(ds.manager, [send('eml_b', { at: later, senderDomain: 'news.example.com' })], true);
    await store.record(ds.manager, [send('eml_b', { at: new Date('2026-05-11T00:00:00Z') })], true);
    expect(await row('eml_b')).toMatchObject({ sentAt: t0, bouncedAt: later, senderDomain: 'news.example.com' });
    expect(await store.record(ds.manager, [send('eml_b2')], true)).toEqual(['eml_b2']);
    expect(await row('eml_b2')).toMatchObject({ bouncedAt: t0 });
  });

  it('a complaint marks the email once; an email never recorded is recorded with it, sent at its time', async () => {
    await store.record(ds.manager, [send('eml_c')], false);
    await store.complaint(ds.manager, send('eml_c', { at: later }));
    await store.complaint(ds.manager, send('eml_c', { at: new Date('2026-05-12T00:00:00Z') }));
    expect(await row('eml_c')).toMatchObject({ sentAt: t0, complainedAt: later });
    await store.complaint(ds.manager, send('eml_c2', { at: later, senderDomain: 'example.com' }));
    expect(await row('eml_c2')).toMatchObject({ sentAt: later, complainedAt: later, senderDomain: 'example.com' });
  });

  it('deletes at most the chunk asked of the emails sent before the instant, and says how many', async () => {
    const old = new Date('2020-01-01T00:00:00Z');
    await store.record(
      ds.manager,
      ['eml_old_1', 'eml_old_2', 'eml_old_3'].map((id) => send(id, { projectId: 'prj_old', at: old })),
      false,
    );
    const before = new Date('2021-01-01T00:00:00Z');
    expect(await store.deleteSentBefore(ds.manager, before, 2)).toBe(2);
    expect(await store.deleteSentBefore(ds.manager, before, 2)).toBe(1);
    expect(await store.deleteSentBefore(ds.manager, before, 2)).toBe(0);
    expect(await ds.getRepository(MeteredEmail).countBy({ projectId: 'prj_m' })).toBeGreaterThan(0);
  });
});
