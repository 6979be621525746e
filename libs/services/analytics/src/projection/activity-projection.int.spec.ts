import type { EventEnvelope } from '@herald/contracts';
import { EventProcessor, Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { analyticsSchema } from '../analytics.module.js';
import type { AnalyticsSettings } from '../analytics.settings.js';
import { ANALYTICS } from '../consumer.js';
import { ActivityRetention } from '../retention/activity-retention.js';
import { RetentionStore } from '../retention/retention.store.js';
import { ActivityEvents } from './activity-events.spec-support.js';
import { ActivityProjector } from './activity-projector.js';

/**
 * The projection on PostgreSQL, fed through the idempotent inbox as the transports feed it:
 * replaying every event (through the inbox, and even around it) changes no count; unique opens and
 * clicks count once per recipient; the prefetch rule flags opens right after delivery; the upcoming
 * lists follow the newest lifecycle event; concurrent batches on the same counters lose nothing;
 * retention prunes the feed and keeps the aggregates.
 */
describe('analytics projection (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let processor: EventProcessor;
  const projector = new ActivityProjector({ prefetchWindowMs: 10_000, unsubscribeAttributionMs: 30 * 86_400_000 });
  const silent = { warn: () => undefined, error: () => undefined };
  const t0 = new Date(Date.UTC(2026, 5, 1, 10, 0, 0));
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(analyticsSchema, db.url, 6).initialize();
    await migrateServiceSchema(ds);
    processor = new EventProcessor(ANALYTICS, ds, new Outbox(ANALYTICS, ds), silent, { baseDelayMs: 10 });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const feed = (events: EventEnvelope[]) =>
    processor.processBatch(events, () => [{ batch: (envs, ctx) => projector.apply(ctx.manager, envs) }]);

  /** Every count the projection keeps for a project, as one comparable value. */
  const counts = async (projectId: string) => ({
    items: await ds.query(
      `SELECT type, count(*)::int AS n FROM analytics.activity_items WHERE project_id = $1 GROUP BY 1 ORDER BY 1`,
      [projectId],
    ),
    hourly: await ds.query(
      `SELECT hour, type, count::int FROM analytics.activity_hourly WHERE project_id = $1 ORDER BY 1, 2`,
      [projectId],
    ),
    minutely: await ds.query(
      `SELECT minute, count::int FROM analytics.activity_minutely WHERE project_id = $1 ORDER BY 1`,
      [projectId],
    ),
    types: await ds.query(`SELECT type, count::int FROM analytics.activity_types WHERE project_id = $1 ORDER BY 1`, [
      projectId,
    ]),
    campaigns: await ds.query(`SELECT * FROM analytics.campaign_stats WHERE project_id = $1 ORDER BY campaign_id`, [
      projectId,
    ]),
  });

  const campaignRun = (ev: ActivityEvents) => {
    const c = { campaignId: 'cmp_1', origin: 'campaign' as const };
    const events: EventEnvelope[] = [ev.campaign('sending', at(0), 'cmp_1', { recipients: 3 })];
    for (const n of [1, 2, 3]) {
      events.push(ev.email('sent', at(n), { ...c, emailId: `eml_${n}`, contactId: `cnt_${n}` }));
    }
    events.push(
      ev.email('delivered', at(10), { ...c, emailId: 'eml_1', contactId: 'cnt_1' }),
      ev.email('delivered', at(10), { ...c, emailId: 'eml_2', contactId: 'cnt_2' }),
      ev.email('bounced', at(11), { ...c, emailId: 'eml_3', contactId: 'cnt_3', bounceType: 'permanent' }),
      // cnt_1 opens twice (two opens reported for its email) and clicks; cnt_2 opens an hour later
      ev.email('opened', at(12), { ...c, emailId: 'eml_1', contactId: 'cnt_1' }),
      ev.email('opened', at(4000), { ...c, emailId: 'eml_1', contactId: 'cnt_1' }),
      ev.email('clicked', at(4001), { ...c, emailId: 'eml_1', contactId: 'cnt_1', url: 'https://example.org' }),
      ev.email('opened', at(3600), { ...c, emailId: 'eml_2', contactId: 'cnt_2' }),
      ev.tracked(at(20), 'cnt_1', 'signed_up'),
      ev.unsubscribed(at(5000), 'cnt_2'),
      ev.campaign('sent', at(30), 'cmp_1', { recipients: 3 }),
    );
    return events;
  };

  it('counts a campaign: unique opens and clicks once per recipient, prefetch flagged, bounces and the unsubscribe its email caused', async () => {
    const ev = new ActivityEvents('prj_int_campaign');
    await feed(campaignRun(ev));
    const [stats] = (await counts(ev.projectId)).campaigns as Record<string, unknown>[];
    expect(stats).toMatchObject({
      state: 'sent',
      recipients: 3,
      sent: 3,
      delivered: 2,
      bounces: 1,
      opens_total: 3,
      opens_unique: 2,
      opens_prefetch: 1,
      clicks_total: 1,
      clicks_unique: 1,
      unsubscribes: 1,
    });
    const opens: { data: { prefetch?: boolean } }[] = await ds.query(
      `SELECT data FROM analytics.activity_items WHERE project_id = $1 AND type = 'email.opened' ORDER BY occurred_at`,
      [ev.projectId],
    );
    expect(opens.map((o) => o.data.prefetch)).toEqual([true, false, false]);
  });

  it('sent, in the time series as in the campaign counters: each email once, on its email.sent or an immediate bounce, whatever order the topics arrive in', async () => {
    const ev = new ActivityEvents('prj_int_sent_rule');
    const c = { campaignId: 'cmp_rule', origin: 'campaign' as const };
    const sentOnly = ev.email('sent', at(1), { ...c, emailId: 'eml_a', contactId: 'cnt_a' });
    const refused = ev.email('bounced', at(2), { ...c, emailId: 'eml_b', contactId: 'cnt_b', bounceType: 'permanent' });
    const laterSent = ev.email('sent', at(3), { ...c, emailId: 'eml_c', contactId: 'cnt_c' });
    // consumed before its email.sent, as separate Kafka topics allow
    const laterBounce = ev.email('bounced', at(30), { ...c, emailId: 'eml_c', contactId: 'cnt_c' });
    await feed([laterBounce]);
    await feed([sentOnly, refused, laterSent]);
    await feed([laterBounce, laterSent]);
    const sentMetric = async () =>
      (
        await ds.query(
          `SELECT COALESCE(sum(count), 0)::int AS n FROM analytics.activity_hourly WHERE project_id = $1 AND type = 'metric.sent'`,
          [ev.projectId],
        )
      )[0].n as number;
    const [stats] = (await counts(ev.projectId)).campaigns as { sent: number; bounces: number }[];
    expect([await sentMetric(), stats!.sent, stats!.bounces]).toEqual([3, 3, 2]);
    // the feed type email.sent still counts email.sent events only
    expect((await counts(ev.projectId)).types).toEqual([
      { type: 'email.bounced', count: 2 },
      { type: 'email.sent', count: 2 },
    ]);
  });

  it('test mode: a test-mode email makes feed items marked testMode, and no count moves: hourly, minute, types, sent, campaign (docs/test-mode.md)', async () => {
    const ev = new ActivityEvents('prj_int_test_mode');
    const recent = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
    const live = { emailId: 'eml_live', contactId: 'cnt_live', campaignId: 'cmp_t', origin: 'campaign' as const };
    await feed([ev.email('sent', recent, live)]);
    const before = await counts(ev.projectId);
    const test = { ...live, emailId: 'eml_test', contactId: 'cnt_test', testMode: true };
    await feed(
      (['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const).map((k) =>
        ev.email(k, recent, test),
      ),
    );
    const after = await counts(ev.projectId);
    expect({ ...after, items: before.items }).toEqual(before);
    const items: { type: string; test: boolean }[] = await ds.query(
      `SELECT type, (data->>'testMode')::boolean AS test FROM analytics.activity_items WHERE project_id = $1 AND email_id = 'eml_test' ORDER BY type`,
      [ev.projectId],
    );
    expect(items).toHaveLength(6);
    expect(items.every((i) => i.test)).toBe(true);
    const tracked: unknown[] = await ds.query(`SELECT 1 FROM analytics.tracked_emails WHERE email_id = 'eml_test'`);
    expect(tracked).toEqual([]);
  });

  it('replaying every event changes no count: through the inbox, and straight into the projector (the source event id key)', async () => {
    const ev = new ActivityEvents('prj_int_replay');
    const events = campaignRun(ev);
    await feed(events);
    const before = await counts(ev.projectId);
    expect(before.items.length).toBeGreaterThan(0);
    await feed(events);
    for (const e of events) await feed([e]);
    expect(await counts(ev.projectId)).toEqual(before);
    // the inbox aside (e.g. a consumer group's offsets reset onto a fresh inbox), the feed's key still holds
    await ds.query(`DELETE FROM analytics.inbox`);
    await feed(events);
    expect(await counts(ev.projectId)).toEqual(before);
  });

  it('concurrent batches on the same counters lose no increment', async () => {
    const ev = new ActivityEvents('prj_int_concurrent');
    // within the last hour, so that the minute counts (kept two days) count them too
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
    const batches = Array.from({ length: 6 }, (_, b) =>
      Array.from({ length: 50 }, (_, i) =>
        ev.tracked(new Date(hour.getTime() + (i % 7) * 1000), `cnt_${b}_${i}`, i % 2 ? 'a' : 'b'),
      ).reverse(),
    );
    await Promise.all(batches.map(feed));
    const c = await counts(ev.projectId);
    expect(c.items).toEqual([{ type: 'event.tracked', n: 300 }]);
    expect(c.hourly).toEqual([{ hour, type: 'event.tracked', count: 300 }]);
    expect(c.minutely.reduce((s: number, r: { count: number }) => s + r.count, 0)).toBe(300);
  });

  it('upcoming: a scheduled campaign leaves once sending, a late older event does not bring it back; a waiting execution leaves at its next step', async () => {
    const ev = new ActivityEvents('prj_int_upcoming');
    const due = new Date(Date.now() + 86_400_000);
    await feed([
      ev.campaign('scheduled', at(0), 'cmp_a', { scheduledAt: due, estimatedRecipients: 40 }),
      ev.campaign('scheduled', at(0), 'cmp_b', { scheduledAt: due, estimatedRecipients: 5 }),
      ev.workflow('waiting', at(1), 'exe_1', due),
      ev.workflow('waiting', at(1), 'exe_2', due),
    ]);
    const scheduled = () =>
      ds
        .query(
          `SELECT campaign_id FROM analytics.campaign_stats WHERE project_id = $1 AND state = 'scheduled' ORDER BY 1`,
          [ev.projectId],
        )
        .then((r: { campaign_id: string }[]) => r.map((x) => x.campaign_id));
    const waiting = () =>
      ds
        .query(
          `SELECT execution_id FROM analytics.workflow_executions WHERE project_id = $1 AND status = 'WAITING' ORDER BY 1`,
          [ev.projectId],
        )
        .then((r: { execution_id: string }[]) => r.map((x) => x.execution_id));
    expect([await scheduled(), await waiting()]).toEqual([
      ['cmp_a', 'cmp_b'],
      ['exe_1', 'exe_2'],
    ]);
    await feed([
      ev.campaign('sending', at(5), 'cmp_a'),
      ev.campaign('cancelled', at(5), 'cmp_b'),
      ev.workflow('step', at(6), 'exe_1'),
      ev.workflow('finished', at(6), 'exe_2'),
    ]);
    expect([await scheduled(), await waiting()]).toEqual([[], []]);
    await feed([
      ev.campaign('scheduled', at(2), 'cmp_a', { scheduledAt: due }),
      ev.workflow('waiting', at(3), 'exe_1', due),
    ]);
    expect([await scheduled(), await waiting()]).toEqual([[], []]);
  });

  it('a batch holding several changes of one execution and one campaign, and two unsubscribes, ends as the events one at a time would', async () => {
    const due = new Date(Date.now() + 86_400_000);
    const run = (ev: ActivityEvents) => {
      const c = { campaignId: 'cmp_r', origin: 'campaign' as const };
      const x = `${ev.projectId}_exe`;
      return [
        ev.campaign('scheduled', at(0), 'cmp_r', { scheduledAt: due, estimatedRecipients: 7 }),
        ev.email('sent', at(1), { ...c, emailId: `${ev.projectId}_e1`, contactId: 'cnt_1' }),
        ev.email('sent', at(1), { ...c, emailId: `${ev.projectId}_e2`, contactId: 'cnt_2' }),
        ev.campaign('sending', at(2), 'cmp_r', { recipients: 2 }),
        ev.campaign('scheduled', at(1), 'cmp_r', { scheduledAt: due }), // older: changes nothing
        ev.campaign('sent', at(3), 'cmp_r'),
        ev.workflow('waiting', at(4), x, due),
        ev.workflow('step', at(6), x),
        ev.workflow('waiting', at(5), x, due), // older: changes nothing
        ev.unsubscribed(at(7), 'cnt_1'),
        ev.unsubscribed(at(8), 'cnt_2'),
        ev.unsubscribed(at(9), 'cnt_1'), // the same recipient again: counted once
      ];
    };
    const batched = new ActivityEvents('prj_int_rounds_a');
    const single = new ActivityEvents('prj_int_rounds_b');
    await ds.transaction((m) => projector.apply(m, run(batched)));
    for (const e of run(single)) await ds.transaction((m) => projector.apply(m, [e]));
    const states = async (ev: ActivityEvents) => ({
      ...(await counts(ev.projectId)),
      executions: await ds.query(
        `SELECT workflow_name, email, status, step_id, step_type, due_at, state_at FROM analytics.workflow_executions WHERE project_id = $1`,
        [ev.projectId],
      ),
    });
    const a = await states(batched);
    const b = await states(single);
    const strip = (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll('prj_int_rounds_a', 'prj_int_rounds_b'));
    expect(strip(a)).toEqual(strip(b));
    expect(a.campaigns[0]).toMatchObject({
      state: 'sent',
      recipients: 2,
      estimated_recipients: 7,
      sent: 2,
      unsubscribes: 2,
    });
    expect(a.executions).toMatchObject([{ status: 'RUNNING' }]);
  });

  it('retention prunes feed items past ACTIVITY_RETENTION_DAYS and keeps the aggregates', async () => {
    const ev = new ActivityEvents('prj_int_retention');
    const old = new Date(Date.now() - 100 * 86_400_000);
    const recent = new Date(Date.now() - 86_400_000);
    await feed([ev.tracked(old, 'cnt_old', 'x'), ev.tracked(recent, 'cnt_new', 'x')]);
    const retention = new ActivityRetention(
      ds,
      undefined as never,
      { ACTIVITY_RETENTION_DAYS: 90 } as AnalyticsSettings,
      new RetentionStore(),
    );
    expect(await retention.prune(new Date())).toBeGreaterThanOrEqual(1);
    const c = await counts(ev.projectId);
    expect(c.items).toEqual([{ type: 'event.tracked', n: 1 }]);
    expect(c.types).toEqual([{ type: 'event.tracked', count: 2 }]);
    expect(c.hourly.reduce((s: number, r: { count: number }) => s + r.count, 0)).toBe(2);
  });
});
