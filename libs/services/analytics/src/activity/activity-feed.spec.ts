import { encodeCursor } from '@herald/http';
import type { DataSource, EntityManager } from 'typeorm';
import { ActivityFeed, FEED_TOTAL_CAP } from './activity-feed.js';
import type { FeedFilter, FeedRow, FeedStore } from './feed.store.js';

const m = {} as EntityManager;
const row = (n: number, p: Partial<FeedRow> = {}): FeedRow => ({
  event_id: `00000000-0000-4000-8000-00000000000${n}`,
  type: 'event.tracked',
  occurred_at: new Date(Date.UTC(2026, 5, 1, 10, 0, 10 - n)),
  occurred_key: `2026-06-01 10:00:0${10 - n}.123456+00`,
  contact_id: null,
  contact_email: null,
  email_id: null,
  email_subject: null,
  campaign_id: null,
  campaign_name: null,
  workflow_id: null,
  workflow_name: null,
  data: {},
  ...p,
});

/** The feed over a store answering `rows`; what it was asked. */
function feedWith(rows: FeedRow[], total = 42) {
  const asked: { rows: unknown[][]; counts: unknown[][] } = { rows: [], counts: [] };
  const store = {
    rows: async (...args: unknown[]) => (asked.rows.push(args), rows),
    count: async (...args: unknown[]) => (asked.counts.push(args), total),
  } as unknown as FeedStore;
  return { feed: new ActivityFeed({ manager: m } as DataSource, store), asked };
}

describe('ActivityFeed: a page of the feed over its store', () => {
  const filter: FeedFilter = { types: ['event.tracked'], contactId: 'cnt_1', range: { from: new Date(0) } };

  it('asks one item more than the page holds; with more, the cursor names the last item shown by its exact key', async () => {
    const { feed, asked } = feedWith([row(1), row(2), row(3)]);
    const page = await feed.page('prj_1', { ...filter, limit: 2 });
    expect(asked.rows).toEqual([[m, 'prj_1', { ...filter, limit: 2 }, undefined, 3]]);
    expect(page.data.map((v) => v.id)).toEqual([row(1).event_id, row(2).event_id]);
    expect(page).toMatchObject({ hasMore: true, total: 42 });
    expect(page.cursor).toBe(encodeCursor({ k: row(2).occurred_key, id: row(2).event_id }));
  });

  it('the first page counts the matching items up to the cap; a later page counts nothing and reads after its cursor', async () => {
    const first = feedWith([row(1)]);
    expect((await first.feed.page('prj_1', { ...filter, limit: 20 })).total).toBe(42);
    expect(first.asked.counts).toEqual([[m, 'prj_1', { ...filter, limit: 20 }, FEED_TOTAL_CAP]]);

    const later = feedWith([row(4)]);
    const cursor = encodeCursor({ k: row(3).occurred_key, id: row(3).event_id });
    const page = await later.feed.page('prj_1', { ...filter, limit: 20, cursor });
    expect(page).toMatchObject({ total: 0, hasMore: false, cursor: null });
    expect(later.asked.counts).toEqual([]);
    expect(later.asked.rows[0]![3]).toEqual({ k: row(3).occurred_key, id: row(3).event_id });
  });

  it('a cursor that is no previous page’s is refused before anything is read', async () => {
    const { feed, asked } = feedWith([]);
    await expect(feed.page('prj_1', { ...filter, limit: 20, cursor: 'bogus' })).rejects.toMatchObject({ status: 422 });
    expect(asked).toEqual({ rows: [], counts: [] });
  });

  it('an item shows its contact, email, campaign and workflow only when it has them', async () => {
    const { feed } = feedWith([
      row(1, {
        type: 'email.opened',
        contact_id: 'cnt_1',
        contact_email: 'a@example.com',
        email_id: 'eml_1',
        email_subject: 'Hi',
        campaign_id: 'cmp_1',
        campaign_name: null,
        data: { prefetch: false },
      }),
      row(2, { contact_email: 'b@example.com', workflow_id: 'wf_1', workflow_name: 'Welcome' }),
      row(3),
    ]);
    const { data } = await feed.page('prj_1', { range: {}, limit: 20 });
    expect(data).toEqual([
      {
        id: row(1).event_id,
        type: 'email.opened',
        occurredAt: row(1).occurred_at.toISOString(),
        contact: { id: 'cnt_1', email: 'a@example.com' },
        email: { id: 'eml_1', subject: 'Hi' },
        campaign: { id: 'cmp_1', name: null },
        data: { prefetch: false },
      },
      {
        id: row(2).event_id,
        type: 'event.tracked',
        occurredAt: row(2).occurred_at.toISOString(),
        contact: { id: null, email: 'b@example.com' },
        workflow: { id: 'wf_1', name: 'Welcome' },
        data: {},
      },
      {
        id: row(3).event_id,
        type: 'event.tracked',
        occurredAt: row(3).occurred_at.toISOString(),
        contact: null,
        data: {},
      },
    ]);
  });
});
