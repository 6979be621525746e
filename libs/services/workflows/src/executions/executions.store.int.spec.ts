import type { WorkflowExecutionStatus } from '@herald/contracts';
import { createServiceDataSource, migrateServiceSchema, tableName } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { workflowsSchema } from '../workflows.module.js';
import { WorkflowExecution, WorkflowStepRun, type StepRunStatus } from './execution.entity.js';
import { ExecutionsStore } from './executions.store.js';

/** The SQL of executions as contacts' events reach them, on PostgreSQL. */
describe('ExecutionsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new ExecutionsStore();
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(workflowsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const execution = (projectId: string, contactId: string, status: WorkflowExecutionStatus = 'WAITING') =>
    ds.getRepository(WorkflowExecution).save({
      id: `wfx_${String(++seq).padStart(4, '0')}`,
      projectId,
      workflowId: `wf_${seq}`,
      graphVersion: 1,
      contactId,
      email: `${contactId}@example.com`,
      status,
      trigger: 'signup',
      triggerEventId: `evt_${seq}`,
      event: {},
      context: {},
      currentStepId: null,
      reason: null,
      finishedAt: null,
    });

  /** A WAIT_FOR_EVENT run of a new execution of the contact. */
  const waitingRun = async (
    projectId: string,
    contactId: string,
    waitEvent: string | null,
    status: StepRunStatus = 'PENDING',
  ) => {
    const e = await execution(projectId, contactId);
    return ds.getRepository(WorkflowStepRun).save({
      id: `wfr_${++seq}`,
      projectId,
      executionId: e.id,
      contactId,
      stepId: `wfs_${seq}`,
      stepType: 'WAIT_FOR_EVENT' as const,
      status,
      dueAt: null,
      waitEvent,
      resumedWith: null,
    });
  };
  const run = (id: string) => ds.getRepository(WorkflowStepRun).findOneByOrFail({ id });

  it('answers which events a pending WAIT_FOR_EVENT run of that contact and project waits for, each once', async () => {
    await waitingRun('prj_aw', 'c1', 'paid');
    await waitingRun('prj_aw', 'c1', 'paid');
    await waitingRun('prj_aw', 'c2', 'paid', 'DONE');
    await waitingRun('prj_aw_other', 'c3', 'paid');
    await waitingRun('prj_aw', 'c3', null);
    const awaited = await store.awaited(ds.manager, [
      { projectId: 'prj_aw', contactId: 'c1', name: 'paid' },
      { projectId: 'prj_aw', contactId: 'c1', name: 'paid' },
      { projectId: 'prj_aw', contactId: 'c1', name: 'opened' },
      { projectId: 'prj_aw', contactId: 'c2', name: 'paid' },
      { projectId: 'prj_aw', contactId: 'c3', name: 'paid' },
    ]);
    expect(awaited).toEqual([{ projectId: 'prj_aw', contactId: 'c1', name: 'paid' }]);
    expect(await store.awaited(ds.manager, [])).toEqual([]);
  });

  it("resumes the contact's runs waiting for the event once: due now, with the event's data; a second event resumes none", async () => {
    const a = await waitingRun('prj_rs', 'c1', 'paid');
    const b = await waitingRun('prj_rs', 'c1', 'paid');
    const other = await waitingRun('prj_rs', 'c2', 'paid');
    const [{ now }] = await ds.query(`SELECT now() AS now`);
    const event = { projectId: 'prj_rs', contactId: 'c1', name: 'paid' };
    expect(await ds.transaction((m) => store.resume(m, event, { amount: 5 }))).toBe(2);
    for (const id of [a.id, b.id]) {
      const r = await run(id);
      expect(r.resumedWith).toEqual({ amount: 5 });
      expect(r.dueAt!.getTime()).toBeGreaterThanOrEqual((now as Date).getTime());
      expect(r.status).toBe('PENDING');
    }
    expect(await ds.transaction((m) => store.resume(m, event, { amount: 6 }))).toBe(0);
    expect((await run(a.id)).resumedWith).toEqual({ amount: 5 });
    expect(await run(other.id)).toMatchObject({ dueAt: null, resumedWith: null });
  });

  it('passes by a waiting run a runner holds locked, and resumes it once released', async () => {
    const r = await waitingRun('prj_lk', 'c1', 'paid');
    const event = { projectId: 'prj_lk', contactId: 'c1', name: 'paid' };
    const holder = ds.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await holder.query(`SELECT id FROM ${tableName(ds, WorkflowStepRun)} WHERE id = $1 FOR UPDATE`, [r.id]);
      expect(await ds.transaction((m) => store.resume(m, event, {}))).toBe(0);
      await holder.commitTransaction();
    } finally {
      await holder.release();
    }
    expect(await ds.transaction((m) => store.resume(m, event, {}))).toBe(1);
  });

  it("locks the contact's RUNNING and WAITING executions of the project, in id order", async () => {
    const running = await execution('prj_ac', 'c1', 'RUNNING');
    const waiting = await execution('prj_ac', 'c1', 'WAITING');
    await execution('prj_ac', 'c1', 'COMPLETED');
    await execution('prj_ac', 'c1', 'CANCELLED');
    await execution('prj_ac', 'c2', 'RUNNING');
    await execution('prj_ac_other', 'c1', 'RUNNING');
    await ds.transaction(async (m) => {
      const rows = await store.lockActiveOfContact(m, 'prj_ac', 'c1');
      expect(rows.map((e) => e.id)).toEqual([running.id, waiting.id]);
      // held until this transaction ends: another one cannot take them
      await expect(
        ds.query(`SELECT id FROM ${tableName(ds, WorkflowExecution)} WHERE id = $1 FOR UPDATE NOWAIT`, [running.id]),
      ).rejects.toMatchObject({ code: '55P03' });
    });
  });
});
