import type { DataSource, EntityManager } from 'typeorm';
import { CampaignAnalytics } from './campaign-analytics.js';
import type { CampaignAnalyticsStore, StatsRow } from './campaign-analytics.store.js';

const m = {} as EntityManager;
const stats = (p: Partial<StatsRow> = {}): StatsRow => ({
  campaign_id: 'cmp_1',
  name: 'Spring',
  subject: 'News',
  state: 'sent',
  scheduled_at: null,
  recipients: 10,
  sent: 0,
  delivered: 0,
  opens_total: 0,
  opens_unique: 0,
  opens_prefetch: 0,
  clicks_total: 0,
  clicks_unique: 0,
  bounces: 0,
  complaints: 0,
  failed: 0,
  unsubscribes: 0,
  ...p,
});

/** CampaignAnalytics over a store answering from `answers`; the calls it made. */
function analyticsWith(answers: Partial<Record<keyof CampaignAnalyticsStore, unknown>>) {
  const calls: unknown[][] = [];
  const store = new Proxy(
    {},
    {
      get:
        (_, name: string) =>
        async (...args: unknown[]) => (calls.push([name, ...args]), answers[name as keyof CampaignAnalyticsStore]),
    },
  ) as CampaignAnalyticsStore;
  return { analytics: new CampaignAnalytics({ manager: m } as DataSource, store), calls };
}

describe('CampaignAnalytics: campaign views over the campaign counters', () => {
  it('one campaign: its counters and rates; a campaign the store does not answer (unknown, deleted, another project’s) is not found', async () => {
    const { analytics } = analyticsWith({ one: stats({ sent: 4, delivered: 3, opens_unique: 2, opens_total: 5 }) });
    expect(await analytics.stats('prj_1', 'cmp_1')).toMatchObject({
      campaignId: 'cmp_1',
      name: 'Spring',
      recipients: 10,
      sent: 4,
      delivered: 3,
      uniqueOpens: 2,
      totalOpens: 5,
    });
    await expect(analyticsWith({ one: undefined }).analytics.stats('prj_1', 'cmp_x')).rejects.toMatchObject({
      kind: 'not_found',
      code: 'CAMPAIGN_NOT_FOUND',
    });
  });

  it('rates are over the delivered emails, or, with no delivery reported, over the sent ones less the bounces; a rate over 0 is 0', async () => {
    const rates = async (p: Partial<StatsRow>) =>
      (await analyticsWith({ one: stats(p) }).analytics.stats('p', 'c')).rates;
    expect(
      await rates({
        sent: 8,
        delivered: 4,
        bounces: 2,
        opens_unique: 2,
        clicks_unique: 1,
        complaints: 1,
        unsubscribes: 1,
      }),
    ).toEqual({
      delivery: 0.5,
      open: 0.5,
      click: 0.25,
      clickToOpen: 0.5,
      bounce: 0.25,
      complaint: 0.25,
      unsubscribe: 0.25,
    });
    expect(await rates({ sent: 8, bounces: 2, opens_unique: 2 })).toMatchObject({
      delivery: 0,
      open: 0.3333,
      bounce: 0.25,
    });
    expect(await rates({ sent: 2, bounces: 3, opens_unique: 1 })).toMatchObject({ open: 0, clickToOpen: 0 });
    expect(await rates({})).toEqual({
      delivery: 0,
      open: 0,
      click: 0,
      clickToOpen: 0,
      bounce: 0,
      complaint: 0,
      unsubscribe: 0,
    });
    expect((await analyticsWith({ one: stats({ recipients: null }) }).analytics.stats('p', 'c')).recipients).toBe(0);
  });

  it('a page of campaigns: page n of size s reads s rows from (n - 1) × s, with the total and the number of pages', async () => {
    const { analytics, calls } = analyticsWith({ page: [stats({ campaign_id: 'cmp_5' })], count: 41 });
    const list = await analytics.list('prj_1', 3, 20);
    expect(list).toMatchObject({ page: 3, pageSize: 20, total: 41, totalPages: 3 });
    expect(list.campaigns.map((c) => c.campaignId)).toEqual(['cmp_5']);
    expect(calls).toContainEqual(['page', m, 'prj_1', 20, 40]);
    expect((await analyticsWith({ page: [], count: 0 }).analytics.list('prj_1', 1, 20)).totalPages).toBe(0);
  });

  it('top campaigns ask the store for the metric and the limit', async () => {
    const { analytics, calls } = analyticsWith({ top: [stats()] });
    expect((await analytics.top('prj_1', 'openRate', 5)).campaigns).toHaveLength(1);
    expect(calls).toEqual([['top', m, 'prj_1', 'openRate', 5]]);
  });

  it('the upcoming list: scheduled campaigns and waiting executions as views, times in ISO 8601 or null', async () => {
    const due = new Date('2026-06-02T10:00:00.000Z');
    const { analytics } = analyticsWith({
      scheduled: [{ campaign_id: 'cmp_1', name: 'Spring', subject: null, scheduled_at: due, estimated_recipients: 7 }],
      waiting: [
        {
          execution_id: 'exe_1',
          workflow_id: 'wf_1',
          workflow_name: 'Welcome',
          contact_id: 'cnt_1',
          email: 'a@example.com',
          step_id: 'step_1',
          step_type: 'WAIT_FOR_EVENT',
          step_name: 'Wait',
          due_at: null,
        },
      ],
    });
    expect(await analytics.upcoming('prj_1', 20)).toEqual({
      campaigns: [
        {
          campaign: { id: 'cmp_1', name: 'Spring', subject: null },
          scheduledAt: due.toISOString(),
          estimatedRecipients: 7,
        },
      ],
      executions: [
        {
          executionId: 'exe_1',
          workflow: { id: 'wf_1', name: 'Welcome' },
          contact: { id: 'cnt_1', email: 'a@example.com' },
          nextStep: { id: 'step_1', type: 'WAIT_FOR_EVENT', name: 'Wait' },
          dueAt: null,
        },
      ],
    });
  });
});
