import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { analyticsSchema } from '../analytics.module.js';
import { CampaignAnalyticsStore } from './campaign-analytics.store.js';

/**
 * The campaign views' reads on PostgreSQL: one campaign, a page of them newest first by creation, the
 * top ones by a metric, the scheduled campaigns and the waiting executions, soonest first; a deleted
 * campaign and another project's are never read.
 */
describe('CampaignAnalyticsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let m: EntityManager;
  const store = new CampaignAnalyticsStore();
  const t0 = Date.UTC(2026, 5, 1, 10, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000);

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

  const campaign = (projectId: string, campaignId: string, v: Record<string, unknown> = {}) => {
    const row: Record<string, unknown> = { project_id: projectId, campaign_id: campaignId, ...v };
    const cols = Object.keys(row);
    return ds.query(
      `INSERT INTO analytics.campaign_stats (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
      Object.values(row),
    );
  };
  const ids = (rows: { campaign_id: string }[]) => rows.map((r) => r.campaign_id);

  it('one campaign: its counters; unknown, deleted, or another project’s is none', async () => {
    await campaign('prj_one', 'cmp_1', { name: 'One', subject: 'S', state: 'sent', sent: 4, opens_unique: 2 });
    await campaign('prj_one', 'cmp_gone', { deleted_at: at(0) });
    expect(await store.one(m, 'prj_one', 'cmp_1')).toEqual({
      campaign_id: 'cmp_1',
      name: 'One',
      subject: 'S',
      state: 'sent',
      scheduled_at: null,
      recipients: null,
      sent: 4,
      delivered: 0,
      opens_total: 0,
      opens_unique: 2,
      opens_prefetch: 0,
      clicks_total: 0,
      clicks_unique: 0,
      bounces: 0,
      complaints: 0,
      failed: 0,
      unsubscribes: 0,
    });
    for (const [p, c] of [
      ['prj_one', 'cmp_none'],
      ['prj_one', 'cmp_gone'],
      ['prj_two', 'cmp_1'],
    ] as const)
      expect(await store.one(m, p, c)).toBeUndefined();
  });

  it('a page: newest first by creation, those with no known creation last, ties by id (descending); the count leaves the deleted out', async () => {
    const p = 'prj_page';
    await campaign(p, 'cmp_a', { created_at: at(10) });
    await campaign(p, 'cmp_b', { created_at: at(30) });
    await campaign(p, 'cmp_c', { created_at: at(20) });
    await campaign(p, 'cmp_d', { created_at: at(20) });
    await campaign(p, 'cmp_e');
    await campaign(p, 'cmp_x', { created_at: at(40), deleted_at: at(50) });
    expect(ids(await store.page(m, p, 10, 0))).toEqual(['cmp_b', 'cmp_d', 'cmp_c', 'cmp_a', 'cmp_e']);
    expect(ids(await store.page(m, p, 2, 2))).toEqual(['cmp_c', 'cmp_a']);
    expect(await store.count(m, p)).toBe(5);
    expect(await store.count(m, 'prj_empty')).toBe(0);
  });

  it('top campaigns: only those with sends, by unique opens or clicks, or by their rate over the reached emails (none reached last), ties by id', async () => {
    const p = 'prj_top';
    // reached: delivered, or sent - bounces where nothing was delivered
    await campaign(p, 'cmp_a', { sent: 10, delivered: 10, opens_unique: 5, clicks_unique: 1 }); // 0.5, 0.1
    await campaign(p, 'cmp_b', { sent: 10, bounces: 8, opens_unique: 2, clicks_unique: 2 }); // reached 2: 1.0, 1.0
    await campaign(p, 'cmp_c', { sent: 4, bounces: 4, opens_unique: 0 }); // reached 0
    await campaign(p, 'cmp_d', { sent: 10, delivered: 10, opens_unique: 5, clicks_unique: 3 }); // 0.5, 0.3
    await campaign(p, 'cmp_e', { opens_unique: 9 }); // no sends
    await campaign(p, 'cmp_f', { sent: 10, opens_unique: 9, deleted_at: at(0) });
    expect(ids(await store.top(m, p, 'opens', 10))).toEqual(['cmp_a', 'cmp_d', 'cmp_b', 'cmp_c']);
    expect(ids(await store.top(m, p, 'clicks', 10))).toEqual(['cmp_d', 'cmp_b', 'cmp_a', 'cmp_c']);
    expect(ids(await store.top(m, p, 'openRate', 10))).toEqual(['cmp_b', 'cmp_a', 'cmp_d', 'cmp_c']);
    expect(ids(await store.top(m, p, 'clickRate', 2))).toEqual(['cmp_b', 'cmp_d']);
  });

  it('the upcoming list: scheduled campaigns soonest first, and executions waiting on a step, those with no deadline last', async () => {
    const p = 'prj_up';
    await campaign(p, 'cmp_late', { state: 'scheduled', scheduled_at: at(200), name: 'Late', estimated_recipients: 3 });
    await campaign(p, 'cmp_soon', { state: 'scheduled', scheduled_at: at(100) });
    await campaign(p, 'cmp_sending', { state: 'sending', scheduled_at: at(50) });
    await campaign(p, 'cmp_deleted', { state: 'scheduled', scheduled_at: at(60), deleted_at: at(0) });
    expect(await store.scheduled(m, p, 10)).toEqual([
      { campaign_id: 'cmp_soon', name: null, subject: null, scheduled_at: at(100), estimated_recipients: null },
      { campaign_id: 'cmp_late', name: 'Late', subject: null, scheduled_at: at(200), estimated_recipients: 3 },
    ]);
    expect(ids(await store.scheduled(m, p, 1))).toEqual(['cmp_soon']);
    const execution = (id: string, status: string, due: Date | null, projectId = p) =>
      ds.query(
        `INSERT INTO analytics.workflow_executions (execution_id, project_id, workflow_id, workflow_name, contact_id, status, due_at, state_at)
         VALUES ($1, $2, 'wf_1', 'Welcome', 'cnt_1', $3, $4, now())`,
        [id, projectId, status, due],
      );
    await execution('exe_b', 'WAITING', null);
    await execution('exe_a', 'WAITING', null);
    await execution('exe_c', 'WAITING', at(300));
    await execution('exe_run', 'RUNNING', at(100));
    await execution('exe_theirs', 'WAITING', at(1), 'prj_other');
    const waiting = await store.waiting(m, p, 10);
    expect(waiting.map((w) => w.execution_id)).toEqual(['exe_c', 'exe_a', 'exe_b']);
    expect(waiting[0]).toEqual({
      execution_id: 'exe_c',
      workflow_id: 'wf_1',
      workflow_name: 'Welcome',
      contact_id: 'cnt_1',
      email: null,
      step_id: null,
      step_type: null,
      step_name: null,
      due_at: at(300),
    });
    expect((await store.waiting(m, p, 1)).map((w) => w.execution_id)).toEqual(['exe_c']);
  });
});
