import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { campaignsSchema } from '../campaigns.module.js';
import type { AudienceContact } from '../clients/segments-client.js';
import { addsUp } from './ledger-rules.js';
import { LedgerRepository as L } from './ledger.repository.js';

const contact = (id: string, email = `${id}@example.com`, subscribed = true): AudienceContact => ({
  id,
  email,
  subscribed,
  data: {},
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
});

/**
 * The ledger's writes against real PostgreSQL: one row per contact whatever is read again, forward-
 * only states whatever order the intake's answers and the email events arrive in, and counts that
 * add up.
 */
describe('the delivery ledger (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let n = 0;
  const campaign = () => `cmp_t${++n}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(campaignsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('a page read again adds no row; a second contact with an address already in the ledger is a skipped duplicate', async () => {
    const id = campaign();
    const page1 = [contact('c1', 'Ann@example.com'), contact('c2'), contact('c3', 'bad address')];
    expect(await L.addPage(ds.manager, 'prj', id, page1)).toBe(3);
    expect(await L.addPage(ds.manager, 'prj', id, page1)).toBe(0);
    expect(
      await L.addPage(ds.manager, 'prj', id, [contact('c4', 'ann@example.com'), contact('c5', 'x@e.com', false)]),
    ).toBe(2);
    const c = await L.counts(ds.manager, id);
    expect(c).toMatchObject({
      recipients: 5,
      pending: 2,
      skipped: 3,
      duplicate: 1,
      invalidAddress: 1,
      unsubscribed: 1,
    });
    expect(addsUp(c)).toBe(true);
    expect((await L.pending(ds.manager, id, 10)).map((r) => r.contactId)).toEqual(['c1', 'c2']);
  });

  it('an email.sent applied before the hand-off answer is recorded keeps the row sent', async () => {
    const id = campaign();
    await L.addPage(ds.manager, 'prj', id, [contact('c1')]);
    expect(
      await L.finalise(
        ds.manager,
        id,
        { contactId: 'c1', email: 'c1@example.com' },
        { status: 'sent', at: new Date() },
      ),
    ).toBe(true);
    await L.applyOutcomes(ds.manager, id, [{ contactId: 'c1', status: 'queued', reason: null, emailId: 'eml_1' }]);
    expect(await L.counts(ds.manager, id)).toMatchObject({ sent: 1, queued: 0, pending: 0 });
  });

  it('a cancel racing a hand-off: the row handed over becomes queued, then sent; the others stay skipped: cancelled', async () => {
    const id = campaign();
    await L.addPage(ds.manager, 'prj', id, [contact('c1'), contact('c2')]);
    await L.cancelPending(ds.manager, id);
    expect(await L.counts(ds.manager, id)).toMatchObject({ skipped: 2, cancelled: 2 });
    await L.applyOutcomes(ds.manager, id, [{ contactId: 'c1', status: 'queued', reason: null, emailId: 'eml_1' }]);
    expect(await L.open(ds.manager, id)).toBe(true);
    await L.finalise(ds.manager, id, { contactId: 'c1', email: 'c1@example.com' }, { status: 'sent', at: new Date() });
    const c = await L.counts(ds.manager, id);
    expect(c).toMatchObject({ recipients: 2, sent: 1, skipped: 1, cancelled: 1, queued: 0 });
    expect(addsUp(c)).toBe(true);
    expect(await L.open(ds.manager, id)).toBe(false);
  });

  it('a final row never changes state: a late email.failed after sent, or a sent after failed, changes nothing; engagement implies sent', async () => {
    const id = campaign();
    await L.addPage(ds.manager, 'prj', id, [contact('c1'), contact('c2'), contact('c3', 'c1@example.com')]);
    await L.applyOutcomes(ds.manager, id, [
      { contactId: 'c1', status: 'queued', reason: null, emailId: 'eml_1' },
      { contactId: 'c2', status: 'queued', reason: null, emailId: 'eml_2' },
    ]);
    await L.finalise(ds.manager, id, { contactId: 'c1', email: 'c1@example.com' }, { status: 'sent', at: new Date() });
    expect(
      await L.finalise(
        ds.manager,
        id,
        { contactId: 'c1', email: 'c1@example.com' },
        { status: 'failed', at: new Date() },
      ),
    ).toBe(false);
    // matched by address when the event has no contact id: never the duplicate row
    await L.engage(ds.manager, id, { email: 'C2@example.com' }, 'opened', new Date());
    const c = await L.counts(ds.manager, id);
    expect(c).toMatchObject({ recipients: 3, sent: 2, duplicate: 1, opened: 1, queued: 0 });
    expect(addsUp(c)).toBe(true);
  });

  it('many concurrent email events on one campaign each land once (the inbox writes in parallel transactions)', async () => {
    const id = campaign();
    const page = Array.from({ length: 200 }, (_, i) => contact(`c${String(i).padStart(3, '0')}`));
    await L.addPage(ds.manager, 'prj', id, page);
    await L.applyOutcomes(
      ds.manager,
      id,
      page.map((p, i) => ({ contactId: p.id, status: 'queued' as const, reason: null, emailId: `eml_${i}` })),
    );
    await Promise.all(
      page.map((p, i) =>
        ds.transaction((m) =>
          L.finalise(
            m,
            id,
            { contactId: p.id, email: p.email },
            { status: i % 10 === 0 ? 'failed' : 'sent', at: new Date() },
          ),
        ),
      ),
    );
    const c = await L.counts(ds.manager, id);
    expect(c).toMatchObject({ recipients: 200, sent: 180, failed: 20, queued: 0 });
    expect(addsUp(c)).toBe(true);
  });

  it('a batch of email events finalises each row once: the first event of a row wins, a final row and a duplicate row never move', async () => {
    const id = campaign();
    await L.addPage(ds.manager, 'prj', id, [
      contact('c1'),
      contact('c2'),
      contact('c3'),
      contact('c4', 'c3@example.com'),
    ]);
    await L.applyOutcomes(
      ds.manager,
      id,
      ['c1', 'c2', 'c3'].map((c, i) => ({
        contactId: c,
        status: 'queued' as const,
        reason: null,
        emailId: `eml_${i}`,
      })),
    );
    await L.finalise(ds.manager, id, { contactId: 'c2', email: 'c2@example.com' }, { status: 'sent', at: new Date() });
    const at = new Date();
    await L.finaliseMany(ds.manager, [
      { campaignId: id, who: { contactId: 'c1', email: 'c1@example.com' }, outcome: { status: 'sent', at } },
      { campaignId: id, who: { contactId: 'c1', email: 'c1@example.com' }, outcome: { status: 'failed', at } },
      {
        campaignId: id,
        who: { contactId: 'c2', email: 'c2@example.com' },
        outcome: { status: 'failed', error: 'x', at },
      },
      // no contact id: found by address, never the duplicate row of that address
      { campaignId: id, who: { email: 'C3@example.com' }, outcome: { status: 'failed', error: 'refused', at } },
    ]);
    const c = await L.counts(ds.manager, id);
    expect(c).toMatchObject({ recipients: 4, sent: 2, failed: 1, duplicate: 1, queued: 0 });
    expect(addsUp(c)).toBe(true);
  });

  it('reads the rows a filter wants after a position, in ledger order, up to a limit; counts them', async () => {
    const id = campaign();
    await L.addPage(ds.manager, 'prj', id, [
      contact('c1'),
      contact('c2', 'c2@example.com', false),
      contact('c3'),
      contact('c4', 'c1@example.com'),
      contact('c5'),
    ]);
    await L.addPage(ds.manager, 'prj', campaign(), [contact('c6')]);
    const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r.contact_id);
    const all = await L.rowsAfter(ds.manager, id, {}, 0, 10);
    expect(ids(all)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(all[0]).toMatchObject({ campaign_id: id, email: 'c1@example.com', status: 'pending' });
    expect(ids(await L.rowsAfter(ds.manager, id, {}, 0, 2))).toEqual(['c1', 'c2']);
    // a position as the cursor or the CSV export hands it, a number or its text
    expect(ids(await L.rowsAfter(ds.manager, id, {}, String(all[1]!.seq), 2))).toEqual(['c3', 'c4']);
    expect(ids(await L.rowsAfter(ds.manager, id, { status: 'pending' }, all[0]!.seq as number, 10))).toEqual([
      'c3',
      'c5',
    ]);
    expect(ids(await L.rowsAfter(ds.manager, id, { status: 'skipped', reason: 'duplicate' }, 0, 10))).toEqual(['c4']);
    expect(await L.countOf(ds.manager, id, {})).toBe(5);
    expect(await L.countOf(ds.manager, id, { status: 'skipped' })).toBe(2);
    expect(await L.countOf(ds.manager, id, { reason: 'unsubscribed' })).toBe(1);
  });
});
