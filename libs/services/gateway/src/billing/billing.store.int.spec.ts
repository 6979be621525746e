import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { gatewaySchema } from '../gateway-core.module.js';
import { BillingAccount } from './billing.entities.js';
import type { Period } from './billing-rules.js';
import { BillingStore } from './billing.store.js';

/** A project's caps, usage and provider account on PostgreSQL. */
describe('BillingStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let store: BillingStore;
  let seq = 0;
  const may: Period = { start: new Date('2026-05-01T00:00:00Z'), end: new Date('2026-06-01T00:00:00Z') };
  const june: Period = { start: new Date('2026-06-01T00:00:00Z'), end: new Date('2026-07-01T00:00:00Z') };

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(gatewaySchema, db.url, 12).initialize();
    await migrateServiceSchema(ds);
    store = new BillingStore(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const project = () => `prj_store_${++seq}`;

  it('usage adds up per category and period, never under zero, and each addition returns the new total', async () => {
    const p = project();
    expect(await store.add(ds.manager, p, 'transactional', 3, may)).toBe(3);
    expect(await store.add(ds.manager, p, 'transactional', 2, may)).toBe(5);
    expect(await store.add(ds.manager, p, 'transactional', 1, june)).toBe(1);
    expect(await store.add(ds.manager, p, 'campaign', 4, may)).toBe(4);
    expect(await store.add(ds.manager, p, 'contacts', -2, may)).toBe(0);
    expect(await store.add(ds.manager, p, 'transactional', -9, may)).toBe(0);
    const rows = await store.usageOf(ds.manager, p, [june.start]);
    expect(rows.map((r) => [r.category, r.used, r.periodEnd])).toEqual([['transactional', 1, june.end]]);
    expect(await store.usage(ds.manager, p, 'campaign', may.start)).toMatchObject({ used: 4, admitted: 0 });
  });

  it('a notice is marked once per category, period and level', async () => {
    const p = project();
    await store.add(ds.manager, p, 'workflow', 1, may);
    await store.add(ds.manager, p, 'workflow', 1, june);
    expect(await store.markNotice(ds.manager, p, 'workflow', 80, may.start)).toBe(true);
    expect(await store.markNotice(ds.manager, p, 'workflow', 80, may.start)).toBe(false);
    expect(await store.markNotice(ds.manager, p, 'workflow', 100, may.start)).toBe(true);
    expect(await store.markNotice(ds.manager, p, 'workflow', 80, june.start)).toBe(true);
    expect(await store.markNotice(ds.manager, p, 'campaign', 80, may.start)).toBe(false); // no usage row
  });

  it('caps written name only the categories given: the others keep theirs, and who wrote them is kept', async () => {
    const p = project();
    expect(await store.limits(ds.manager, p)).toBeNull();
    await store.writeCaps(ds.manager, p, { transactional: 10 }, 'usr_1');
    expect(await store.limits(ds.manager, p)).toMatchObject({
      transactional: 10,
      campaign: null,
      workflow: null,
      updatedBy: 'usr_1',
    });
    await store.writeCaps(ds.manager, p, { campaign: 0, workflow: 5 }, 'stripe');
    expect(await store.limits(ds.manager, p)).toMatchObject({
      transactional: 10,
      campaign: 0,
      workflow: 5,
      updatedBy: 'stripe',
    });
  });

  it("a reservation fits under the cap counted on the larger of the emails sent and admitted; concurrent ones pass only the cap's worth", async () => {
    const p = project();
    const reserved = await Promise.all(Array.from({ length: 10 }, () => store.reserve(p, 'transactional', may, 1, 4)));
    expect(reserved.filter(Boolean)).toHaveLength(4);
    expect(await store.usage(ds.manager, p, 'transactional', may.start)).toMatchObject({ used: 0, admitted: 4 });

    const q = project();
    await store.add(ds.manager, q, 'campaign', 3, may); // sent without having been admitted
    expect(await store.reserve(q, 'campaign', may, 2, 4)).toBe(false);
    expect(await store.reserve(q, 'campaign', may, 1, 4)).toBe(true);
    expect(await store.usage(ds.manager, q, 'campaign', may.start)).toMatchObject({ used: 3, admitted: 1 });
  });

  it("reads the project's account at the payment provider", async () => {
    const p = project();
    expect(await store.account(ds.manager, p)).toBeNull();
    await ds.getRepository(BillingAccount).insert({ projectId: p, customerId: `cus_${p}`, periodStart: may.start });
    expect(await store.account(ds.manager, p)).toMatchObject({ customerId: `cus_${p}`, periodStart: may.start });
  });
});
