import type { ExportedContact } from '@herald/internal-contracts';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { segmentsSchema } from '../segments.module.js';
import { ReadModelStore } from './read-model.store.js';

/**
 * The read model's SQL on PostgreSQL: contact events applied out of order leave the newest state (a
 * late older update, an update after the deletion, a late creation), field types follow the first
 * value, events are kept once per contacts record id, and a backfill page rebuilds contacts without
 * undoing newer live changes.
 */
describe('ReadModelStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new ReadModelStore();
  const project = 'prj_rm_store';
  const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(segmentsSchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const row = async (contactId: string, projectId = project) =>
    (
      await ds.query(
        `SELECT email, subscribed, data, created_at, updated_at FROM segments.segment_contacts WHERE project_id = $1 AND contact_id = $2`,
        [projectId, contactId],
      )
    )[0] as
      | { email: string; subscribed: boolean; data: Record<string, unknown>; created_at: Date; updated_at: Date }
      | undefined;
  const apply = (contactId: string, data: Record<string, unknown>, at: Date, created = false, projectId = project) =>
    ds.transaction((m) =>
      store.upsertContact(
        m,
        projectId,
        { contactId, email: `${contactId}@example.com`, subscribed: true, data },
        at,
        created,
      ),
    );
  const events = (projectId: string) =>
    ds.query<{ contact_id: string; name: string; event_record_id: string | null }[]>(
      `SELECT contact_id, name, event_record_id FROM segments.segment_contact_events WHERE project_id = $1
        ORDER BY contact_id, name, event_record_id`,
      [projectId],
    );

  it('keeps the newest state: an older update delivered late changes nothing', async () => {
    expect(await apply('c1', { plan: 'a' }, t(1), true)).toBe(true);
    expect(await apply('c1', { plan: 'c' }, t(3))).toBe(true);
    expect(await apply('c1', { plan: 'b' }, t(2))).toBe(false);
    expect((await row('c1'))!.data).toEqual({ plan: 'c' });
  });

  it('a late contact.created fixes the creation time and keeps the newer data', async () => {
    await apply('c2', { plan: 'new' }, t(5));
    await apply('c2', { plan: 'old' }, t(4), true);
    const r = (await row('c2'))!;
    expect([r.data, r.created_at.toISOString(), r.updated_at.toISOString()]).toEqual([
      { plan: 'new' },
      t(4).toISOString(),
      t(5).toISOString(),
    ]);
  });

  it('an update delivered after the deletion does not bring the contact back', async () => {
    await apply('c3', { plan: 'a' }, t(1), true);
    await ds.transaction((m) => store.deleteContact(m, project, 'c3', t(3)));
    expect(await apply('c3', { plan: 'b' }, t(2))).toBe(false);
    expect(await row('c3')).toBeUndefined();
  });

  it('the first non-null value of a key fixes its type', async () => {
    await apply('c4', { score: null, since: '2024-01-02', n: 1 }, t(1), true);
    await apply('c5', { score: 'high', n: 'one' }, t(1), true);
    expect(Object.fromEntries(await store.fieldTypes(ds.manager, project))).toMatchObject({
      'data.score': 'string',
      'data.since': 'date',
      'data.n': 'number',
    });
  });

  it('a subscription change older than the stored state changes nothing; a newer one answers its contact', async () => {
    const p = 'prj_rm_subscription';
    await apply('s1', {}, t(5), true, p);
    const changed = await ds.transaction((m) =>
      store.setSubscribedMany(m, [
        { projectId: p, contactId: 's1', subscribed: false, at: t(4) },
        { projectId: p, contactId: 'unknown', subscribed: false, at: t(6) },
      ]),
    );
    expect([changed, (await row('s1', p))!.subscribed]).toEqual([[], true]);
    expect(
      await ds.transaction((m) =>
        store.setSubscribedMany(m, [{ projectId: p, contactId: 's1', subscribed: false, at: t(6) }]),
      ),
    ).toEqual([{ projectId: p, contactId: 's1' }]);
    expect((await row('s1', p))!.subscribed).toBe(false);
  });

  it('a tracked event is kept once per contacts record id; one without a record id is appended', async () => {
    const p = 'prj_rm_events';
    const signup = { projectId: p, contactId: 'e1', name: 'signup', at: t(1) };
    await ds.transaction((m) => store.addEvents(m, [{ ...signup, recordId: 'evt_1' }, signup]));
    await ds.transaction((m) => store.addEvents(m, [{ ...signup, recordId: 'evt_1' }, signup]));
    expect(await events(p)).toEqual([
      { contact_id: 'e1', name: 'signup', event_record_id: 'evt_1' },
      { contact_id: 'e1', name: 'signup', event_record_id: null },
      { contact_id: 'e1', name: 'signup', event_record_id: null },
    ]);
  });

  it("an email event's contact is its own id, else its address's contact in the project, else none", async () => {
    const p = 'prj_rm_lookup';
    await apply('l1', {}, t(1), true, p);
    expect(
      await store.contactIdsFor(ds.manager, [
        { projectId: p, contactId: 'given', email: 'x@example.com' },
        { projectId: p, email: ' L1@Example.com ' },
        { projectId: p, email: 'nobody@example.com' },
        { projectId: 'prj_other', email: 'l1@example.com' },
      ]),
    ).toEqual(['given', 'l1', undefined, undefined]);
    expect(await store.idsByEmail(ds.manager, p, ['l1@example.com', 'nobody@example.com'])).toEqual(
      new Map([['l1@example.com', 'l1']]),
    );
  });

  it('a backfill page rebuilds contacts with their own times, keeps a newer live state, respects a tombstone, and adds each recorded event once', async () => {
    const p = 'prj_rm_backfill';
    const exported = (
      id: string,
      plan: string,
      updated: Date,
      evts: ExportedContact['events'] = [],
    ): ExportedContact => ({
      id,
      email: `${id}@example.com`,
      subscribed: true,
      data: { plan },
      createdAt: t(0).toISOString(),
      updatedAt: updated.toISOString(),
      events: evts,
    });
    await apply('b_live', { plan: 'live' }, t(9), true, p); // applied live after the export's state
    await apply('b_gone', {}, t(1), true, p);
    await ds.transaction((m) => store.deleteContact(m, p, 'b_gone', t(2)));
    await ds.transaction((m) => store.addEvents(m, [{ projectId: p, contactId: 'b_new', name: 'old', at: t(1) }]));
    const page = [
      exported('b_new', 'pro', t(3), [{ id: 'evt_b1', name: 'signup', at: t(2).toISOString() }]),
      exported('b_live', 'stale', t(4)),
      exported('b_gone', 'back', t(4), [{ id: 'evt_b2', name: 'signup', at: t(2).toISOString() }]),
    ];
    await ds.transaction((m) => store.backfillPage(m, p, page));
    await ds.transaction((m) => store.backfillPage(m, p, page));

    const created = (await row('b_new', p))!;
    expect([created.data, created.created_at.toISOString(), created.updated_at.toISOString()]).toEqual([
      { plan: 'pro' },
      t(0).toISOString(),
      t(3).toISOString(),
    ]);
    expect((await row('b_live', p))!.data).toEqual({ plan: 'live' });
    expect(await row('b_gone', p)).toBeUndefined();
    // the event without a record id was replaced; the tombstoned contact's event was not added
    expect(await events(p)).toEqual([{ contact_id: 'b_new', name: 'signup', event_record_id: 'evt_b1' }]);
    expect(Object.fromEntries(await store.fieldTypes(ds.manager, p))).toEqual({ 'data.plan': 'string' });
  });
});
