import { Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema, tableName } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { WORKFLOWS } from '../consumer.js';
import { workflowsSchema } from '../workflows.module.js';
import type { Graph } from './graph.js';
import { Workflow, WorkflowStep, WorkflowTransition, WorkflowVersion } from './workflow.entity.js';
import { WorkflowStore } from './workflow-store.js';

/** The workflows an event triggers, a step's next position, frozen versions and a workflow's deletion, on PostgreSQL. */
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
    return ds.getRepository(Workflow).findOneByOrFail({ id });
  };

  const step = (workflowId: string, id: string, position: number) =>
    ds.getRepository(WorkflowStep).save({
      id,
      projectId: 'prj_1',
      workflowId,
      type: 'DELAY' as const,
      name: id,
      position,
      coordinates: null,
      config: {},
    });

  const graphOf = (stepId: string): Graph => ({
    steps: [{ id: stepId, type: 'DELAY', name: stepId, position: 0, config: {} }],
    transitions: [],
  });

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

  it("places a step without a position after the workflow's last one, 0 in an empty workflow", async () => {
    await workflow('wf_pos', 'prj_1', 'signup', false, 0);
    expect(await store.nextPosition(ds.manager, 'wf_pos')).toBe(0);
    await step('wf_pos', 'wfs_pos_a', 4);
    await step('wf_pos', 'wfs_pos_b', 2);
    await step('wf_pos_other', 'wfs_pos_c', 9);
    expect(await store.nextPosition(ds.manager, 'wf_pos')).toBe(5);
  });

  it('freezes a version once: a second freeze of it keeps the first graph; the frozen graph comes with the name', async () => {
    const w = await workflow('wf_frz', 'prj_1', 'signup', false, 0);
    expect(await store.frozen(ds.manager, 'wf_frz', 1)).toBeUndefined();
    await store.freeze(ds.manager, w, graphOf('wfs_first'));
    await store.freeze(ds.manager, w, graphOf('wfs_second'));
    expect(await store.frozen(ds.manager, 'wf_frz', 1)).toEqual({ name: 'wf_frz', graph: graphOf('wfs_first') });
    expect(await store.frozen(ds.manager, 'wf_frz', 2)).toBeUndefined();
    expect(await ds.getRepository(WorkflowVersion).findOneByOrFail({ workflowId: 'wf_frz' })).toMatchObject({
      projectId: 'prj_1',
      graphVersion: 1,
    });
  });

  it("a frozen version outlives its workflow's row under the workflow's id as its name", async () => {
    const w = await workflow('wf_gone', 'prj_1', 'signup', false, 0);
    await store.freeze(ds.manager, w, graphOf('wfs_gone'));
    await ds.getRepository(Workflow).delete({ id: 'wf_gone' });
    expect(await store.frozen(ds.manager, 'wf_gone', 1)).toEqual({ name: 'wf_gone', graph: graphOf('wfs_gone') });
  });

  it('deletes the workflow with its versions, steps and transitions, and nothing of another workflow', async () => {
    for (const id of ['wf_del', 'wf_kept']) {
      const w = await workflow(id, 'prj_1', 'signup', false, 0);
      await step(id, `${id}_a`, 0);
      await step(id, `${id}_b`, 1);
      await ds.getRepository(WorkflowTransition).save({
        id: `${id}_t`,
        projectId: 'prj_1',
        workflowId: id,
        fromStepId: `${id}_a`,
        toStepId: `${id}_b`,
        branch: '',
      });
      await store.freeze(ds.manager, w, graphOf(`${id}_a`));
    }
    await ds.transaction((m) => store.delete(m, 'wf_del'));
    const left = async (workflowId: string) =>
      Promise.all([
        ds.getRepository(Workflow).countBy({ id: workflowId }),
        ds.getRepository(WorkflowStep).countBy({ workflowId }),
        ds.getRepository(WorkflowTransition).countBy({ workflowId }),
        ds.getRepository(WorkflowVersion).countBy({ workflowId }),
      ]);
    expect(await left('wf_del')).toEqual([0, 0, 0, 0]);
    expect(await left('wf_kept')).toEqual([1, 2, 1, 1]);
  });
});
