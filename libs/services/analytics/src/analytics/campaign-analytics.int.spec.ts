import type { EventEnvelope } from '@herald/contracts';
import { EventProcessor, Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { analyticsSchema } from '../analytics.module.js';
import { ANALYTICS } from '../consumer.js';
import { ActivityEvents } from '../projection/activity-events.spec-support.js';
import { ActivityProjector } from '../projection/activity-projector.js';
import { CampaignAnalytics } from './campaign-analytics.js';
import { CampaignAnalyticsStore } from './campaign-analytics.store.js';

/**
 * `/analytics/campaign-stats` without a campaign id, on PostgreSQL, fed through the inbox as the
 * transports feed it: every campaign of the project from its creation (campaigns' references event)
 * on, newest first by creation whatever order its events are consumed in, a page at a time, each the
 * view the campaign id form answers.
 */
describe('campaign list of analytics (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let processor: EventProcessor;
  let campaigns: CampaignAnalytics;
  const projector = new ActivityProjector({ prefetchWindowMs: 10_000, unsubscribeAttributionMs: 30 * 86_400_000 });
  const silent = { warn: () => undefined, error: () => undefined };
  const t0 = new Date(Date.UTC(2026, 5, 1, 10, 0, 0));
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(analyticsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    processor = new EventProcessor(ANALYTICS, ds, new Outbox(ANALYTICS, ds), silent, { baseDelayMs: 10 });
    campaigns = new CampaignAnalytics(ds, new CampaignAnalyticsStore());
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const feed = (events: EventEnvelope[]) =>
    processor.processBatch(events, () => [{ batch: (envs, ctx) => projector.apply(ctx.manager, envs) }]);
  const ids = async (projectId: string, page = 1, pageSize = 20) =>
    (await campaigns.list(projectId, page, pageSize)).campaigns.map((c) => c.campaignId);

  it('lists every campaign of the project newest first by creation, a draft included from its creation on', async () => {
    const ev = new ActivityEvents('prj_list_order');
    await feed([
      ev.references(at(0), 'cmp_old', 'Old'),
      ev.campaign('sent', at(50), 'cmp_old', { recipients: 2 }),
      ev.references(at(10), 'cmp_mid', 'Mid'),
      ev.campaign('scheduled', at(60), 'cmp_mid', { scheduledAt: at(3600), estimatedRecipients: 4 }),
      ev.references(at(20), 'cmp_new', 'New'),
    ]);
    const list = await campaigns.list(ev.projectId, 1, 20);
    expect(list).toMatchObject({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
    // (the builder's lifecycle events name a campaign `Campaign <id>`, newer than its creation)
    expect(list.campaigns.map((c) => [c.campaignId, c.name, c.state, c.recipients])).toEqual([
      ['cmp_new', 'New', 'draft', 0],
      ['cmp_mid', 'Campaign cmp_mid', 'scheduled', 0],
      ['cmp_old', 'Campaign cmp_old', 'sent', 2],
    ]);
    // each entry is the view the campaign id form answers
    for (const c of list.campaigns) expect(c).toEqual(await campaigns.stats(ev.projectId, c.campaignId));
  });

  it('orders by creation whatever order the topics are consumed in: a later event first moves nothing', async () => {
    const ev = new ActivityEvents('prj_list_late');
    // the newer campaign's lifecycle and emails come before its creation (separate Kafka topics)
    await feed([
      ev.email('sent', at(100), { emailId: 'eml_1', contactId: 'cnt_1', campaignId: 'cmp_b', origin: 'campaign' }),
      ev.campaign('sending', at(90), 'cmp_b', { recipients: 1 }),
      ev.references(at(40), 'cmp_a', 'A'),
    ]);
    expect(await ids(ev.projectId)).toEqual(['cmp_b', 'cmp_a']);
    await feed([ev.references(at(30), 'cmp_b', 'B')]);
    expect(await ids(ev.projectId)).toEqual(['cmp_a', 'cmp_b']);
    // replayed, and a later change of it (revision 2): its creation stays
    await feed([ev.references(at(30), 'cmp_b', 'B'), ev.references(at(200), 'cmp_b', 'B renamed', 2)]);
    expect(await ids(ev.projectId)).toEqual(['cmp_a', 'cmp_b']);
  });

  it('a campaign known from its emails only (creation not consumed yet) comes last; equal creations by id, newest first', async () => {
    const ev = new ActivityEvents('prj_list_ties');
    await feed([
      ev.email('sent', at(1), { emailId: 'eml_x', contactId: 'cnt_x', campaignId: 'cmp_zz', origin: 'campaign' }),
      ev.references(at(5), 'cmp_1', 'One'),
      ev.references(at(5), 'cmp_2', 'Two'),
    ]);
    expect(await ids(ev.projectId)).toEqual(['cmp_2', 'cmp_1', 'cmp_zz']);
  });

  it('the name is the newest event’s, whichever topic brings it', async () => {
    const ev = new ActivityEvents('prj_list_names');
    await feed([ev.references(at(0), 'cmp_n', 'First'), ev.campaign('scheduled', at(10), 'cmp_n')]);
    expect((await campaigns.list(ev.projectId, 1, 20)).campaigns[0]!.name).toBe('Campaign cmp_n');
    await feed([ev.references(at(20), 'cmp_n', 'Renamed while scheduled', 3)]);
    expect((await campaigns.list(ev.projectId, 1, 20)).campaigns[0]!.name).toBe('Renamed while scheduled');
    // older events, consumed late, rename nothing
    await feed([ev.references(at(5), 'cmp_n', 'Stale', 2), ev.campaign('scheduled', at(15), 'cmp_n')]);
    expect((await campaigns.list(ev.projectId, 1, 20)).campaigns[0]).toMatchObject({
      name: 'Renamed while scheduled',
      state: 'scheduled',
    });
  });

  it('pages: pageSize a page, newest first, with the total and the number of pages', async () => {
    const ev = new ActivityEvents('prj_list_pages');
    await feed([1, 2, 3, 4, 5].map((n) => ev.references(at(n), `cmp_${n}`, `C${n}`)));
    expect(await campaigns.list(ev.projectId, 1, 2)).toMatchObject({ page: 1, pageSize: 2, total: 5, totalPages: 3 });
    expect([await ids(ev.projectId, 1, 2), await ids(ev.projectId, 2, 2), await ids(ev.projectId, 3, 2)]).toEqual([
      ['cmp_5', 'cmp_4'],
      ['cmp_3', 'cmp_2'],
      ['cmp_1'],
    ]);
    expect(await campaigns.list(ev.projectId, 4, 2)).toMatchObject({ campaigns: [], total: 5, totalPages: 3 });
  });

  it('lists only the project’s campaigns, and no other resource’s references', async () => {
    const mine = new ActivityEvents('prj_list_mine');
    const theirs = new ActivityEvents('prj_list_theirs');
    await feed([
      mine.references(at(1), 'cmp_mine', 'Mine'),
      theirs.references(at(2), 'cmp_theirs', 'Theirs'),
      mine.references(at(3), 'seg_1', 'A segment', 1, 'segment'),
      mine.references(at(4), 'wfl_1', 'A workflow', 1, 'workflow'),
    ]);
    expect(await campaigns.list(mine.projectId, 1, 20)).toMatchObject({ total: 1, totalPages: 1 });
    expect(await ids(mine.projectId)).toEqual(['cmp_mine']);
    expect(await ids(theirs.projectId)).toEqual(['cmp_theirs']);
    expect(await campaigns.list('prj_list_none', 1, 20)).toEqual({
      campaigns: [],
      page: 1,
      pageSize: 20,
      total: 0,
      totalPages: 0,
    });
  });

  it('a deleted campaign is answered no more (listed, by id, top, upcoming), whatever of it arrives later', async () => {
    const ev = new ActivityEvents('prj_list_deleted');
    await feed([
      ev.references(at(0), 'cmp_kept', 'Kept'),
      ev.references(at(10), 'cmp_gone', 'Gone'),
      ev.campaign('scheduled', at(20), 'cmp_gone', { scheduledAt: at(3600), estimatedRecipients: 1 }),
      ev.references(at(30), 'cmp_gone', 'Gone', 3, 'campaign', true),
    ]);
    expect(await ids(ev.projectId)).toEqual(['cmp_kept']);
    expect((await campaigns.list(ev.projectId, 1, 20)).total).toBe(1);
    await expect(campaigns.stats(ev.projectId, 'cmp_gone')).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_FOUND' });
    expect((await campaigns.upcoming(ev.projectId, 10)).campaigns).toEqual([]);
    // a late lifecycle event and an email of it, and the deletion replayed: it stays deleted
    await feed([
      ev.campaign('sent', at(40), 'cmp_gone', { recipients: 1 }),
      ev.email('sent', at(41), { emailId: 'eml_g', contactId: 'cnt_g', campaignId: 'cmp_gone', origin: 'campaign' }),
      ev.references(at(30), 'cmp_gone', 'Gone', 3, 'campaign', true),
    ]);
    expect(await ids(ev.projectId)).toEqual(['cmp_kept']);
    expect((await campaigns.top(ev.projectId, 'opens', 10)).campaigns).toEqual([]);
  });
});
