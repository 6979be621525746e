import type { EventEnvelope } from '@herald/contracts';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { analyticsSchema } from '../analytics.module.js';
import { ActivityEvents } from './activity-events.spec-support.js';
import { SENT_METRIC_TYPE, toActivity } from './activity-item.js';
import { ActivityStore, type CampaignCounters, type Engagement } from './activity-store.js';

/**
 * The activity projection's SQL on PostgreSQL: the feed insert answers only new items, counters add
 * to what is there, tracked emails keep their earliest times, an email is counted as sent once, a
 * first engagement is first once, and an unsubscribe finds the campaign the contact heard from last.
 */
describe('ActivityStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let m: EntityManager;
  const store = new ActivityStore();
  const t0 = Date.UTC(2026, 5, 1, 10, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000);
  const iso = (seconds: number) => at(seconds).toISOString();
  const row = (e: EventEnvelope) => toActivity(e)!;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(analyticsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    m = ds.manager;
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const tracked = (emailId: string) =>
    ds.query(
      `SELECT project_id, contact_id, campaign_id, sent_at, delivered_at, counted_sent_at FROM analytics.tracked_emails WHERE email_id = $1`,
      [emailId],
    );

  it('a tracked email keeps the earliest sent and delivered times reported, and the campaign and contact first known', async () => {
    const email = (sent: string | null, delivered: string | null, campaignId: string | null) => ({
      emailId: 'eml_track',
      projectId: 'prj_track',
      contactId: campaignId ? 'cnt_track' : null,
      campaignId,
      sent,
      delivered,
    });
    await store.trackEmails(m, [email(iso(10), null, null)]);
    await store.trackEmails(m, [email(iso(5), iso(30), 'cmp_1')]);
    await store.trackEmails(m, [email(iso(8), iso(20), 'cmp_2')]);
    await store.trackEmails(m, []);
    expect(await tracked('eml_track')).toEqual([
      {
        project_id: 'prj_track',
        contact_id: 'cnt_track',
        campaign_id: 'cmp_1',
        sent_at: at(5),
        delivered_at: at(20),
        counted_sent_at: null,
      },
    ]);
    const known = await store.trackedTimes(m, ['eml_track', 'eml_unknown']);
    expect([...known]).toEqual([['eml_track', { sentAt: at(5), deliveredAt: at(20) }]]);
  });

  it('the feed insert answers only the items it had not seen: a replayed event is not new again', async () => {
    const ev = new ActivityEvents('prj_feed');
    const first = row(ev.email('opened', at(1), { emailId: 'eml_1', contactId: 'cnt_1' }));
    const second = row(ev.tracked(at(2), 'cnt_1', 'signed_up'));
    expect(await store.insertItems(m, [first])).toEqual([first]);
    expect(await store.insertItems(m, [first, second])).toEqual([second]);
    expect(await store.insertItems(m, [second, first])).toEqual([]);
    const stored = await ds.query(
      `SELECT type, contact_email, email_id, data FROM analytics.activity_items WHERE project_id = 'prj_feed' ORDER BY occurred_at`,
    );
    expect(stored).toEqual([
      { type: 'email.opened', contact_email: 'cnt_1@example.com', email_id: 'eml_1', data: { origin: 'api' } },
      {
        type: 'event.tracked',
        contact_email: 'cnt_1@example.com',
        email_id: null,
        data: { name: 'signed_up', eventRecordId: 'evt_cnt_1_signed_up', data: {} },
      },
    ]);
  });

  it('hourly, minute and type counters add to what is there; a type keeps its latest time', async () => {
    const p = 'prj_counts';
    for (const n of [2, 3]) {
      await store.addHourly(m, [{ projectId: p, hour: iso(0), type: 'email.opened', n }]);
      await store.addMinutely(m, [{ projectId: p, minute: iso(60), n }]);
      await store.addTypeCounts(m, [{ projectId: p, type: 'email.opened', n, lastSeenAt: iso(n === 2 ? 50 : 40) }]);
    }
    await store.addHourly(m, [{ projectId: p, hour: iso(0), type: SENT_METRIC_TYPE, n: 4 }]);
    expect(
      await ds.query(`SELECT type, count::int FROM analytics.activity_hourly WHERE project_id = $1 ORDER BY type`, [p]),
    ).toEqual([
      { type: 'email.opened', count: 5 },
      { type: SENT_METRIC_TYPE, count: 4 },
    ]);
    expect(
      await ds.query(`SELECT minute, count::int FROM analytics.activity_minutely WHERE project_id = $1`, [p]),
    ).toEqual([{ minute: at(60), count: 5 }]);
    expect(
      await ds.query(`SELECT type, count::int, last_seen_at FROM analytics.activity_types WHERE project_id = $1`, [p]),
    ).toEqual([{ type: 'email.opened', count: 5, last_seen_at: at(50) }]);
  });

  it('an email is counted as sent once, at the time of the first candidate that marked it', async () => {
    const ev = new ActivityEvents('prj_sent');
    const c = { campaignId: 'cmp_s', origin: 'campaign' as const };
    await store.trackEmails(m, [
      { emailId: 'eml_s1', projectId: 'prj_sent', contactId: 'cnt_1', campaignId: null, sent: iso(1), delivered: null },
    ]);
    const candidate = (e: EventEnvelope) => ({ ...row(e), emailId: row(e).emailId! });
    const bounce = candidate(ev.email('bounced', at(30), { ...c, emailId: 'eml_s1', contactId: 'cnt_1' }));
    const sent2 = candidate(ev.email('sent', at(2), { ...c, emailId: 'eml_s2', contactId: 'cnt_2' }));
    expect(await store.markCountedSent(m, [bounce, sent2])).toEqual(['eml_s1', 'eml_s2']);
    const sent1 = candidate(ev.email('sent', at(1), { ...c, emailId: 'eml_s1', contactId: 'cnt_1' }));
    expect(await store.markCountedSent(m, [sent1, sent2])).toEqual([]);
    expect(await tracked('eml_s1')).toEqual([
      {
        project_id: 'prj_sent',
        contact_id: 'cnt_1',
        campaign_id: null,
        sent_at: at(1),
        delivered_at: null,
        counted_sent_at: at(30),
      },
    ]);
    expect((await tracked('eml_s2'))[0]).toMatchObject({ campaign_id: 'cmp_s', counted_sent_at: at(2) });
  });

  it('an engagement is a recipient’s first of its kind once: a later one of the same key is not', async () => {
    const e = (recipient: string, kind: string, eventId: string): Engagement => ({
      projectId: 'prj_eng',
      campaignId: 'cmp_e',
      recipient,
      kind,
      eventId,
    });
    const ids = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
    expect(await store.firstEngagements(m, [])).toEqual(new Set());
    expect(await store.firstEngagements(m, [e('cnt_1', 'click', ids(3)), e('cnt_1', 'open', ids(1))])).toEqual(
      new Set([ids(1), ids(3)]),
    );
    expect(await store.firstEngagements(m, [e('cnt_1', 'open', ids(4)), e('cnt_2', 'open', ids(5))])).toEqual(
      new Set([ids(5)]),
    );
  });

  it('campaign counters add to what is there, a counter no delta names adding nothing', async () => {
    const add = (counts: CampaignCounters['counts']) =>
      store.addToCampaigns(m, [{ projectId: 'prj_cmp', campaignId: 'cmp_c', counts }]);
    await add({ sent: 3, opens_total: 2 });
    await add({ sent: 1, unsubscribes: 1 });
    const [stats] = await ds.query(`SELECT * FROM analytics.campaign_stats WHERE project_id = 'prj_cmp'`);
    expect(stats).toMatchObject({
      sent: 4,
      delivered: 0,
      opens_total: 2,
      opens_unique: 0,
      opens_prefetch: 0,
      clicks_total: 0,
      clicks_unique: 0,
      bounces: 0,
      complaints: 0,
      failed: 0,
      unsubscribes: 1,
    });
  });

  it('an unsubscribe finds the campaign of the email its contact was sent last within the window, and nothing else', async () => {
    const p = 'prj_unsub';
    const track = (emailId: string, contactId: string, campaignId: string | null, sent: number) =>
      store.trackEmails(m, [{ emailId, projectId: p, contactId, campaignId, sent: iso(sent), delivered: null }]);
    await track('eml_u1', 'cnt_1', 'cmp_old', 10);
    await track('eml_u2', 'cnt_1', 'cmp_new', 20);
    await track('eml_u3', 'cnt_1', null, 25); // not a campaign's
    await track('eml_u4', 'cnt_1', 'cmp_later', 200); // after the unsubscribe
    await track('eml_u5', 'cnt_2', 'cmp_stale', 0); // outside the window
    const ev = new ActivityEvents(p);
    const mine = row(ev.unsubscribed(at(100), 'cnt_1'));
    const stale = row(ev.unsubscribed(at(100), 'cnt_2'));
    const nobody = row(ev.unsubscribed(at(100), 'cnt_3'));
    const campaignOf = await store.lastCampaignBefore(m, [mine, stale, nobody], 95_000);
    expect([...campaignOf]).toEqual([[mine.eventId, 'cmp_new']]);
  });
});
