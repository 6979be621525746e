import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { workflowsSchema } from '../workflows.module.js';
import { ContactFactsStore, type ActivityRow } from './contact-facts.store.js';

/** What workflows keep of a contact for CONDITION steps (activity, segment memberships), on PostgreSQL. */
describe('ContactFactsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new ContactFactsStore();

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(workflowsSchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
  const activity = (
    contactId: string,
    source: 'event' | 'email',
    name: string,
    s: number,
    projectId = 'prj_a',
  ): ActivityRow => ({ projectId, contactId, source, name, occurredAt: at(s) });

  it("keeps a contact's activity per project and answers it newest first, in one insert for many contacts", async () => {
    await store.recordActivity(ds.manager, [
      activity('c1', 'event', 'signup', 1),
      activity('c2', 'event', 'signup', 2),
      activity('c1', 'email', 'opened', 3),
      activity('c1', 'event', 'paid', 4, 'prj_other'),
    ]);
    await store.recordActivity(ds.manager, []);
    expect(await store.activityOf(ds.manager, 'prj_a', 'c1')).toEqual([
      { source: 'email', name: 'opened', occurred_at: at(3) },
      { source: 'event', name: 'signup', occurred_at: at(1) },
    ]);
    expect(await store.activityOf(ds.manager, 'prj_other', 'c1')).toEqual([
      { source: 'event', name: 'paid', occurred_at: at(4) },
    ]);
  });

  it("answers at most a contact's latest 5,000 activities", async () => {
    await store.recordActivity(
      ds.manager,
      Array.from({ length: 5001 }, (_, i) => activity('many', 'event', `e${i}`, i % 60)),
    );
    const rows = await store.activityOf(ds.manager, 'prj_a', 'many');
    expect(rows).toHaveLength(5000);
    expect(rows[0]!.name).toBe('e5000');
    expect(rows[4999]!.name).toBe('e1');
  });

  it('an entry already known (twice in one run too) is kept once; an exit removes only the memberships named', async () => {
    const key = (contactId: string, segmentId: string, projectId = 'prj_s') => ({ projectId, contactId, segmentId });
    await store.enterSegments(ds.manager, [key('c1', 'seg_1'), key('c1', 'seg_2'), key('c2', 'seg_1')]);
    await store.enterSegments(ds.manager, [key('c1', 'seg_1'), key('c1', 'seg_1'), key('c1', 'seg_1', 'prj_t')]);
    expect((await store.segmentsOf(ds.manager, 'prj_s', 'c1')).sort()).toEqual(['seg_1', 'seg_2']);
    await store.exitSegments(ds.manager, [key('c1', 'seg_1'), key('c3', 'seg_1')]);
    expect(await store.segmentsOf(ds.manager, 'prj_s', 'c1')).toEqual(['seg_2']);
    expect(await store.segmentsOf(ds.manager, 'prj_s', 'c2')).toEqual(['seg_1']);
    expect(await store.segmentsOf(ds.manager, 'prj_t', 'c1')).toEqual(['seg_1']);
  });

  it("forgetting a contact removes its activity and memberships, not another contact's or project's", async () => {
    await store.recordActivity(ds.manager, [
      activity('gone', 'event', 'signup', 1, 'prj_f'),
      activity('kept', 'event', 'signup', 1, 'prj_f'),
      activity('gone', 'event', 'signup', 1, 'prj_g'),
    ]);
    await store.enterSegments(ds.manager, [
      { projectId: 'prj_f', contactId: 'gone', segmentId: 'seg_1' },
      { projectId: 'prj_f', contactId: 'kept', segmentId: 'seg_1' },
      { projectId: 'prj_g', contactId: 'gone', segmentId: 'seg_1' },
    ]);
    await ds.transaction((m) => store.forgetContact(m, 'prj_f', 'gone'));
    expect(await store.activityOf(ds.manager, 'prj_f', 'gone')).toEqual([]);
    expect(await store.segmentsOf(ds.manager, 'prj_f', 'gone')).toEqual([]);
    expect(await store.activityOf(ds.manager, 'prj_f', 'kept')).toHaveLength(1);
    expect(await store.segmentsOf(ds.manager, 'prj_f', 'kept')).toEqual(['seg_1']);
    expect(await store.activityOf(ds.manager, 'prj_g', 'gone')).toHaveLength(1);
    expect(await store.segmentsOf(ds.manager, 'prj_g', 'gone')).toEqual(['seg_1']);
  });
});
