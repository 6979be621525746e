import type { EventEnvelope } from '@herald/contracts';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { analyticsSchema } from '../analytics.module.js';
import { ActivityEvents } from '../projection/activity-events.spec-support.js';
import { toActivity } from '../projection/activity-item.js';
import { ActivityStore } from '../projection/activity-store.js';
import { EntityStatesStore } from '../projection/entity-states-store.js';
import { FeedStore, type FeedFilter } from './feed.store.js';

/**
 * The feed's reads on PostgreSQL: a project's items newest first with their campaign's current name,
 * each filter narrowing them (a range inclusive at both ends), a page continuing after the position
 * the previous one ended at, and a count that stops at its cap.
 */
describe('FeedStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let m: EntityManager;
  const store = new FeedStore();
  const t0 = Date.UTC(2026, 5, 1, 10, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000);
  const ev = new ActivityEvents('prj_feed');
  const c = { campaignId: 'cmp_1', origin: 'campaign' as const };
  const events: EventEnvelope[] = [
    ev.email('sent', at(1), { ...c, emailId: 'eml_1', contactId: 'cnt_1' }),
    ev.email('opened', at(2), { ...c, emailId: 'eml_1', contactId: 'cnt_1' }),
    ev.tracked(at(3), 'cnt_2', 'signed_up'),
    ev.email('sent', at(4), { emailId: 'eml_2', contactId: 'cnt_2' }),
    ev.tracked(at(4), 'cnt_1', 'login'), // the same time as the one before: ordered by event id
    new ActivityEvents('prj_other').tracked(at(5), 'cnt_1', 'login'),
  ];
  const ids = (rows: { event_id: string }[]) => rows.map((r) => r.event_id);
  const newestFirst = (es: EventEnvelope[]) =>
    [...es]
      .sort((a, b) => b.occurredAt.localeCompare(a.occurredAt) || b.eventId.localeCompare(a.eventId))
      .map((e) => e.eventId);
  const mine = events.filter((e) => e.projectId === 'prj_feed');
  const all: FeedFilter = { range: {} };

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(analyticsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    m = ds.manager;
    await new ActivityStore().insertItems(
      m,
      events.map((e) => toActivity(e)!),
    );
    await new EntityStatesStore().campaignReferences(m, [
      { projectId: 'prj_feed', campaignId: 'cmp_1', name: 'Spring sale', at: at(0).toISOString(), deletedAt: null },
    ]);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('answers the project’s items newest first (ties by event id), each with its campaign’s current name', async () => {
    const rows = await store.rows(m, 'prj_feed', all, undefined, 10);
    expect(ids(rows)).toEqual(newestFirst(mine));
    const opened = rows.find((r) => r.type === 'email.opened')!;
    expect(opened).toMatchObject({
      occurred_at: at(2),
      contact_id: 'cnt_1',
      contact_email: 'cnt_1@example.com',
      email_id: 'eml_1',
      email_subject: 'Hello',
      campaign_id: 'cmp_1',
      campaign_name: 'Spring sale',
      workflow_id: null,
    });
    expect(rows.find((r) => r.type === 'event.tracked')!.campaign_name).toBeNull();
  });

  it('each filter narrows the items: types, contact, campaign, and a range inclusive at both ends', async () => {
    const only = async (f: Partial<FeedFilter>) =>
      ids(await store.rows(m, 'prj_feed', { range: {}, ...f }, undefined, 10));
    const where = (p: (e: EventEnvelope) => boolean) => newestFirst(mine.filter(p));
    expect(await only({ types: ['email.sent', 'email.opened'] })).toEqual(where((e) => e.type.startsWith('email.')));
    expect(await only({ contactId: 'cnt_2' })).toEqual(
      where((e) => (e.payload as { contactId: string }).contactId === 'cnt_2'),
    );
    expect(await only({ campaignId: 'cmp_1' })).toEqual(
      where((e) => (e.payload as { campaignId?: string }).campaignId === 'cmp_1'),
    );
    expect(await only({ range: { from: at(2), to: at(3) } })).toEqual(
      where((e) => e.occurredAt >= at(2).toISOString() && e.occurredAt <= at(3).toISOString()),
    );
    expect(await only({ types: ['event.tracked'], contactId: 'cnt_1', range: { from: at(4) } })).toEqual([
      mine[4]!.eventId,
    ]);
  });

  it('a page continues after the position the last one ended at, its key exact as the database wrote it', async () => {
    const first = await store.rows(m, 'prj_feed', all, undefined, 2);
    const last = first.at(-1)!;
    const next = await store.rows(m, 'prj_feed', all, { k: last.occurred_key, id: last.event_id }, 10);
    expect([...ids(first), ...ids(next)]).toEqual(newestFirst(mine));
  });

  it('counts the matching items, stopping at the cap', async () => {
    expect(await store.count(m, 'prj_feed', all, 1000)).toBe(5);
    expect(await store.count(m, 'prj_feed', all, 3)).toBe(3);
    expect(await store.count(m, 'prj_feed', { types: ['email.sent'], range: {} }, 1000)).toBe(2);
    expect(await store.count(m, 'prj_nobody', all, 1000)).toBe(0);
  });
});
