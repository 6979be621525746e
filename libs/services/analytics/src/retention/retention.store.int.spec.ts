import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { analyticsSchema } from '../analytics.module.js';
import { ActivityEvents } from '../projection/activity-events.spec-support.js';
import { toActivity } from '../projection/activity-item.js';
import { ActivityStore } from '../projection/activity-store.js';
import { RetentionStore } from './retention.store.js';

/**
 * Retention's SQL on PostgreSQL: the chain's number (read, locked, advanced), and the prune's deletes,
 * each only what is past its cutoff, chunk after chunk until nothing is left, answering how many rows
 * went.
 */
describe('RetentionStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let m: EntityManager;
  const store = new RetentionStore();
  const writer = new ActivityStore();
  const t0 = Date.UTC(2026, 5, 1, 10, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000);
  const iso = (seconds: number) => at(seconds).toISOString();

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

  it('the chain’s number: none before its first link, then 1, 2, …; read and locked alike', async () => {
    expect(await store.current(m)).toBeUndefined();
    expect(await ds.transaction((tx) => store.lock(tx))).toBeUndefined();
    expect(await store.advance(m)).toBe(1);
    expect(await store.advance(m)).toBe(2);
    expect(await store.current(m)).toBe(2);
    expect(await ds.transaction((tx) => store.lock(tx))).toBe(2);
  });

  it('feed items: the project’s before the cutoff, chunk after chunk; the other project’s and the newer ones stay', async () => {
    const mine = new ActivityEvents('prj_keep');
    const theirs = new ActivityEvents('prj_theirs');
    const events = [
      ...[1, 2, 3, 4, 5].map((s) => mine.tracked(at(s), `cnt_${s}`, 'old')),
      mine.tracked(at(100), 'cnt_new', 'new'),
      theirs.tracked(at(1), 'cnt_1', 'old'),
    ];
    const rows = events.map((e) => toActivity(e)!);
    await writer.insertItems(m, rows);
    await writer.addTypeCounts(m, [
      { projectId: 'prj_keep', type: 'event.tracked', n: 6, lastSeenAt: iso(100) },
      { projectId: 'prj_theirs', type: 'event.tracked', n: 1, lastSeenAt: iso(1) },
    ]);
    expect((await store.projects(m)).sort()).toEqual(['prj_keep', 'prj_theirs']);
    const chunked = Object.assign(new RetentionStore(), { chunk: 2 });
    expect(await chunked.pruneItems(m, 'prj_keep', at(50))).toBe(5);
    const left = await ds.query(`SELECT project_id, occurred_at FROM analytics.activity_items ORDER BY project_id`);
    expect(left).toEqual([
      { project_id: 'prj_keep', occurred_at: at(100) },
      { project_id: 'prj_theirs', occurred_at: at(1) },
    ]);
    expect(await chunked.pruneItems(m, 'prj_keep', at(50))).toBe(0);
  });

  it('tracked emails: those whose first known time (sent, else delivered, else counted) is before the cutoff', async () => {
    const track = (emailId: string, sent: string | null, delivered: string | null) =>
      writer.trackEmails(m, [{ emailId, projectId: 'prj_t', contactId: null, campaignId: null, sent, delivered }]);
    await track('eml_old_sent', iso(1), iso(100));
    await track('eml_old_delivered', null, iso(2));
    await track('eml_new', iso(100), null);
    await writer.markCountedSent(m, [
      { emailId: 'eml_old_counted', projectId: 'prj_t', contactId: null, campaignId: null, occurredAt: iso(3) },
    ]);
    expect(await store.pruneTrackedEmails(m, at(50))).toBe(3);
    expect(await ds.query(`SELECT email_id FROM analytics.tracked_emails`)).toEqual([{ email_id: 'eml_new' }]);
  });

  it('workflow executions: the ended ones last changed before the cutoff; running and waiting ones stay however old', async () => {
    const execution = (id: string, status: string, stateAt: Date) =>
      ds.query(
        `INSERT INTO analytics.workflow_executions (execution_id, project_id, workflow_id, workflow_name, contact_id, status, state_at)
         VALUES ($1, 'prj_w', 'wf_1', 'Welcome', 'cnt_1', $2, $3)`,
        [id, status, stateAt],
      );
    await execution('exe_done', 'COMPLETED', at(1));
    await execution('exe_failed', 'FAILED', at(2));
    await execution('exe_running', 'RUNNING', at(1));
    await execution('exe_waiting', 'WAITING', at(1));
    await execution('exe_recent', 'EXITED', at(100));
    expect(await store.pruneFinishedExecutions(m, at(50))).toBe(2);
    expect(
      (await ds.query(`SELECT execution_id FROM analytics.workflow_executions ORDER BY 1`)).map(
        (r: { execution_id: string }) => r.execution_id,
      ),
    ).toEqual(['exe_recent', 'exe_running', 'exe_waiting']);
  });

  it('minute counts: those before the cutoff, in one statement', async () => {
    await writer.addMinutely(m, [
      { projectId: 'prj_m', minute: iso(0), n: 1 },
      { projectId: 'prj_m', minute: iso(60), n: 1 },
      { projectId: 'prj_m', minute: iso(120), n: 1 },
    ]);
    expect(await store.pruneMinutes(m, at(120))).toBe(2);
    expect(await ds.query(`SELECT minute FROM analytics.activity_minutely`)).toEqual([{ minute: at(120) }]);
  });
});
