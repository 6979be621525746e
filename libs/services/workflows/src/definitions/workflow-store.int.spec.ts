import { Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema, tableName } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { WORKFLOWS } from '../consumer.js';
import { workflowsSchema } from '../workflows.module.js';
import { Workflow } from './workflow.entity.js';
import { WorkflowStore } from './workflow-store.js';

/** The workflows an event triggers, on PostgreSQL. */
describe('WorkflowStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let store: WorkflowStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(workflowsSchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
    store = new WorkflowStore(new Outbox(WORKFLOWS, ds));
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  /** A workflow created at second `s` of the day. */
  const workflow = async (id: string, projectId: string, eventName: string, enabled: boolean, s: number) => {
    await ds.getRepository(Workflow).save({
      id,
      projectId,
      name: id,
      description: null,
      triggerType: 'EVENT' as const,
      triggerConfig: { eventName },
      eventName,
      enabled,
      allowReentry: false,
      graphVersion: 1,
    });
    await ds.query(`UPDATE ${tableName(ds, Workflow)} SET created_at = $2 WHERE id = $1`, [
      id,
      new Date(Date.UTC(2026, 0, 1, 0, 0, s)),
    ]);
  };

  it('answers the enabled workflows of each (project, event name) asked, oldest first, in one look-up', async () => {
    await workflow('wf_b', 'prj_1', 'signup', true, 3);
    await workflow('wf_a', 'prj_1', 'signup', true, 1);
    await workflow('wf_off', 'prj_1', 'signup', false, 0);
    await workflow('wf_paid_1', 'prj_1', 'paid', true, 0);
    await workflow('wf_signup_2', 'prj_2', 'signup', true, 0);
    await workflow('wf_paid_2', 'prj_2', 'paid', true, 2);
    await workflow('wf_c', 'prj_1', 'signup', true, 3);
    const rows = await store.triggeredBy(ds.manager, [
      { projectId: 'prj_1', name: 'signup' },
      { projectId: 'prj_2', name: 'paid' },
      { projectId: 'prj_3', name: 'signup' },
    ]);
    // a pair is matched as a pair: prj_1's `paid` and prj_2's `signup` were not asked
    expect(rows.map((w) => w.id)).toEqual(['wf_a', 'wf_paid_2', 'wf_b', 'wf_c']);
    expect(await store.triggeredBy(ds.manager, [])).toEqual([]);
  });
});
