import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { sendingService } from '../sending.module.js';
import { SenderDomainStore, type SenderDomainState } from './sender-domain.store.js';

/**
 * The copy of the sender domains on PostgreSQL: the newest event's state wins (an older one, even
 * redelivered later, changes nothing), and a DKIM key an event does not carry stays.
 */
describe('SenderDomainStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let m: EntityManager;
  const store = new SenderDomainStore();

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(sendingService.schema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    m = ds.manager;
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const state = (verified: boolean, eventAt: string, dkim?: { selector: string; key: string }): SenderDomainState => ({
    domainId: 'dom_1',
    projectId: 'prj_s',
    domain: 'brand.test',
    verified,
    dkimSelector: dkim?.selector ?? null,
    dkimPrivateKeySealed: dkim?.key ?? null,
    eventAt,
  });
  const copy = async () =>
    (
      await ds.query(
        `SELECT project_id, domain, verified, dkim_selector, dkim_private_key_sealed, event_at FROM sending.sender_domains WHERE domain_id = 'dom_1'`,
      )
    )[0];

  it('the newest event wins; an older one changes nothing; a DKIM key the event does not carry stays', async () => {
    await store.apply(m, state(true, '2026-06-01T10:00:00.000Z', { selector: 's1', key: 'sealed-1' }));
    await store.apply(m, state(false, '2026-06-01T09:00:00.000Z', { selector: 's0', key: 'sealed-0' }));
    expect(await copy()).toEqual({
      project_id: 'prj_s',
      domain: 'brand.test',
      verified: true,
      dkim_selector: 's1',
      dkim_private_key_sealed: 'sealed-1',
      event_at: new Date('2026-06-01T10:00:00.000Z'),
    });
    await store.apply(m, state(false, '2026-06-01T11:00:00.000Z'));
    expect(await copy()).toMatchObject({
      verified: false,
      dkim_selector: 's1',
      dkim_private_key_sealed: 'sealed-1',
      event_at: new Date('2026-06-01T11:00:00.000Z'),
    });
    await store.apply(m, state(true, '2026-06-01T11:00:00.000Z', { selector: 's2', key: 'sealed-2' }));
    expect(await copy()).toMatchObject({ verified: true, dkim_selector: 's2' });
  });
});
