import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { analyticsSchema } from '../analytics.module.js';
import {
  EntityStatesStore,
  type CampaignReferenceRow,
  type CampaignStateRow,
  type WorkflowStateRow,
} from './entity-states-store.js';

/**
 * The campaign and execution states on PostgreSQL: the newest event wins each state (an older one
 * changes nothing, a value it does not give stays), a campaign's name is the newest event's that names
 * it whichever topic brought it, its creation the earliest event's, a deletion stays, and an execution
 * is never taken over by another project's event.
 */
describe('EntityStatesStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let m: EntityManager;
  const store = new EntityStatesStore();
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

  const campaign = async (projectId: string, campaignId: string) =>
    (
      await ds.query(
        `SELECT name, name_at, subject, state, state_at, scheduled_at, estimated_recipients, recipients, created_at, deleted_at
           FROM analytics.campaign_stats WHERE project_id = $1 AND campaign_id = $2`,
        [projectId, campaignId],
      )
    )[0];
  const state = (
    p: Partial<CampaignStateRow> & { campaignId: string; state: string; at: string },
  ): CampaignStateRow => ({
    projectId: 'prj_c',
    name: `Campaign at ${p.at}`,
    subject: `Subject at ${p.at}`,
    scheduledAt: null,
    estimatedRecipients: null,
    recipients: null,
    ...p,
  });
  const reference = (p: Partial<CampaignReferenceRow> & { campaignId: string; at: string }): CampaignReferenceRow => ({
    projectId: 'prj_c',
    name: `Named at ${p.at}`,
    deletedAt: null,
    ...p,
  });

  it('a campaign’s state is the newest event’s: an older one changes nothing, a schedule or a size the newer event does not give stays', async () => {
    await store.campaignStates(m, [
      state({ campaignId: 'cmp_1', state: 'scheduled', at: iso(10), scheduledAt: iso(3600), estimatedRecipients: 7 }),
      state({ campaignId: 'cmp_2', state: 'sent', at: iso(10), recipients: 3 }),
    ]);
    await store.campaignStates(m, [state({ campaignId: 'cmp_1', state: 'sending', at: iso(20), recipients: 5 })]);
    await store.campaignStates(m, [
      state({ campaignId: 'cmp_1', state: 'scheduled', at: iso(15), scheduledAt: iso(99) }),
    ]);
    expect(await campaign('prj_c', 'cmp_1')).toEqual({
      name: `Campaign at ${iso(20)}`,
      name_at: at(20),
      subject: `Subject at ${iso(20)}`,
      state: 'sending',
      state_at: at(20),
      scheduled_at: at(3600),
      estimated_recipients: 7,
      recipients: 5,
      created_at: at(10),
      deleted_at: null,
    });
    expect(await campaign('prj_c', 'cmp_2')).toMatchObject({ state: 'sent', recipients: 3 });
  });

  it('references make a draft known from its creation; the newest naming event gives the name, the earliest event the creation', async () => {
    await store.campaignReferences(m, [reference({ campaignId: 'cmp_r', at: iso(30), name: 'Renamed' })]);
    expect(await campaign('prj_c', 'cmp_r')).toMatchObject({ name: 'Renamed', state: 'draft', created_at: at(30) });
    // its lifecycle consumed first had set a later creation: the references event lowers it, keeps the newer name
    await store.campaignStates(m, [state({ campaignId: 'cmp_r', state: 'scheduled', at: iso(40), name: 'Lifecycle' })]);
    await store.campaignReferences(m, [reference({ campaignId: 'cmp_r', at: iso(5), name: 'First' })]);
    expect(await campaign('prj_c', 'cmp_r')).toMatchObject({
      name: 'Lifecycle',
      name_at: at(40),
      state: 'scheduled',
      created_at: at(5),
    });
    await store.campaignReferences(m, [reference({ campaignId: 'cmp_r', at: iso(50), name: 'Latest' })]);
    expect(await campaign('prj_c', 'cmp_r')).toMatchObject({ name: 'Latest', name_at: at(50), state: 'scheduled' });
  });

  it('a deletion stays: a later references event of the campaign does not undo it', async () => {
    await store.campaignReferences(m, [reference({ campaignId: 'cmp_d', at: iso(1) })]);
    await store.campaignReferences(m, [reference({ campaignId: 'cmp_d', at: iso(2), deletedAt: iso(2) })]);
    await store.campaignReferences(m, [reference({ campaignId: 'cmp_d', at: iso(3) })]);
    expect(await campaign('prj_c', 'cmp_d')).toMatchObject({ deleted_at: at(2), created_at: at(1) });
  });

  it('a round writes several campaigns and projects at once, each on its own row', async () => {
    await store.campaignStates(m, [
      state({ projectId: 'prj_x', campaignId: 'cmp_same', state: 'sent', at: iso(1) }),
      state({ projectId: 'prj_y', campaignId: 'cmp_same', state: 'cancelled', at: iso(1) }),
    ]);
    expect([(await campaign('prj_x', 'cmp_same')).state, (await campaign('prj_y', 'cmp_same')).state]).toEqual([
      'sent',
      'cancelled',
    ]);
  });

  describe('workflow executions', () => {
    const execution = (p: Partial<WorkflowStateRow> & { status: string; at: string }): WorkflowStateRow => ({
      executionId: 'exe_1',
      projectId: 'prj_w',
      workflowId: 'wf_1',
      workflowName: 'Welcome',
      contactId: 'cnt_1',
      email: 'a@example.com',
      stepId: 'step_delay',
      stepType: 'DELAY',
      stepName: 'Wait',
      dueAt: null,
      ...p,
    });
    const stored = async (id = 'exe_1') =>
      (
        await ds.query(
          `SELECT project_id, workflow_name, email, status, step_id, due_at, state_at FROM analytics.workflow_executions WHERE execution_id = $1`,
          [id],
        )
      )[0];

    it('the newest event gives the status and the step waited on; an older one changes nothing; a known email stays', async () => {
      await store.workflowStates(m, [execution({ status: 'WAITING', at: iso(10), dueAt: iso(86_400) })]);
      await store.workflowStates(m, [execution({ status: 'RUNNING', at: iso(5), stepId: 'step_old' })]);
      expect(await stored()).toEqual({
        project_id: 'prj_w',
        workflow_name: 'Welcome',
        email: 'a@example.com',
        status: 'WAITING',
        step_id: 'step_delay',
        due_at: at(86_400),
        state_at: at(10),
      });
      await store.workflowStates(m, [
        execution({ status: 'COMPLETED', at: iso(20), email: null, workflowName: 'Welcome v2', stepId: null }),
      ]);
      expect(await stored()).toMatchObject({
        workflow_name: 'Welcome v2',
        email: 'a@example.com',
        status: 'COMPLETED',
        step_id: null,
        due_at: null,
        state_at: at(20),
      });
    });

    it('events of one instant apply in lifecycle order, whichever topic arrives first: started then waiting stays waiting', async () => {
      // workflow.waiting applied before workflow.started of the same millisecond (two topics, no order between them)
      await store.workflowStates(m, [execution({ executionId: 'exe_tie', status: 'WAITING', at: iso(30) })]);
      await store.workflowStates(m, [
        execution({ executionId: 'exe_tie', status: 'RUNNING', at: iso(30), stepId: null, stepType: null }),
      ]);
      expect(await stored('exe_tie')).toMatchObject({ status: 'WAITING', step_id: 'step_delay' });
      // and in the topics' own order
      await store.workflowStates(m, [execution({ executionId: 'exe_tie2', status: 'RUNNING', at: iso(30) })]);
      await store.workflowStates(m, [execution({ executionId: 'exe_tie2', status: 'WAITING', at: iso(30) })]);
      expect(await stored('exe_tie2')).toMatchObject({ status: 'WAITING' });
      // a finish of the same instant ends it
      await store.workflowStates(m, [
        execution({ executionId: 'exe_tie', status: 'COMPLETED', at: iso(30), stepId: null }),
      ]);
      expect(await stored('exe_tie')).toMatchObject({ status: 'COMPLETED', step_id: null });
    });

    it('another project’s event with the same execution id changes nothing', async () => {
      await store.workflowStates(m, [execution({ executionId: 'exe_p', status: 'WAITING', at: iso(1) })]);
      await store.workflowStates(m, [
        execution({ executionId: 'exe_p', projectId: 'prj_other', status: 'FAILED', at: iso(2) }),
      ]);
      expect(await stored('exe_p')).toMatchObject({ project_id: 'prj_w', status: 'WAITING' });
    });
  });
});
