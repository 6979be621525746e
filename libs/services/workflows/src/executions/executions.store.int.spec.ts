import type { WorkflowExecutionStatus } from '@herald/contracts';
import { createServiceDataSource, migrateServiceSchema, tableName } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { workflowsSchema } from '../workflows.module.js';
import { WorkflowEntry, WorkflowExecution, WorkflowStepRun, type StepRunStatus } from './execution.entity.js';
import { ExecutionsStore } from './executions.store.js';

/** The SQL of executions on PostgreSQL: as contacts' events reach them, their starts, locks, changes and deletion. */
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

  const execution = (
    projectId: string,
    contactId: string,
    status: WorkflowExecutionStatus = 'WAITING',
    workflowId?: string,
  ) =>
    ds.getRepository(WorkflowExecution).save({
      id: `wfx_${String(++seq).padStart(4, '0')}`,
      projectId,
      workflowId: workflowId ?? `wf_${seq}`,
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

  it("resumes a run in the resuming event's trace when it is traced, and keeps the run's when not (ADR 0019)", async () => {
    const entered = `00-${'a'.repeat(32)}-${'1'.repeat(16)}-01`;
    const resuming = `00-${'b'.repeat(32)}-${'2'.repeat(16)}-01`;
    const traced = await waitingRun('prj_rt', 'c1', 'paid');
    const untraced = await waitingRun('prj_rt', 'c2', 'paid');
    for (const { id } of [traced, untraced])
      await ds.getRepository(WorkflowStepRun).update({ id }, { traceparent: entered });
    await ds.transaction((m) => store.resume(m, { projectId: 'prj_rt', contactId: 'c1', name: 'paid' }, {}, resuming));
    await ds.transaction((m) => store.resume(m, { projectId: 'prj_rt', contactId: 'c2', name: 'paid' }, {}));
    expect((await run(traced.id)).traceparent).toBe(resuming);
    expect((await run(untraced.id)).traceparent).toBe(entered);
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

  it("holds each pair's advisory lock until the transaction ends, whatever the pairs' order or repeats", async () => {
    const free = async (key: string): Promise<boolean> =>
      (await ds.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok`, [key]))[0].ok;
    await ds.transaction(async (m) => {
      await store.lockPairs(m, [
        { workflowId: 'wf_lk2', contactId: 'c1' },
        { workflowId: 'wf_lk1', contactId: 'c1' },
        { workflowId: 'wf_lk2', contactId: 'c1' },
      ]);
      expect(await free('workflows:wf_lk1:c1')).toBe(false);
      expect(await free('workflows:wf_lk2:c1')).toBe(false);
      expect(await free('workflows:wf_lk1:c2')).toBe(true);
    });
    expect(await free('workflows:wf_lk1:c1')).toBe(true);
  });

  it('answers the executions of each workflow and triggering event asked, matched as pairs', async () => {
    const a = await execution('prj_te', 'c1', 'COMPLETED', 'wf_te1');
    const b = await execution('prj_te', 'c2', 'RUNNING', 'wf_te2');
    await execution('prj_te', 'c3', 'RUNNING', 'wf_te3');
    const rows = await store.ofTriggerEvents(ds.manager, [
      { workflowId: 'wf_te1', triggerEventId: a.triggerEventId! },
      { workflowId: 'wf_te2', triggerEventId: b.triggerEventId! },
      { workflowId: 'wf_te1', triggerEventId: b.triggerEventId! },
      { workflowId: 'wf_te3', triggerEventId: 'evt_none' },
    ]);
    expect(rows.map((e) => e.id).sort()).toEqual([a.id, b.id]);
    expect(await store.ofTriggerEvents(ds.manager, [])).toEqual([]);
  });

  it('answers which workflow and contact pairs have a RUNNING or WAITING execution, each once', async () => {
    await execution('prj_ap', 'c1', 'RUNNING', 'wf_ap1');
    await execution('prj_ap', 'c1', 'COMPLETED', 'wf_ap1');
    await execution('prj_ap', 'c2', 'COMPLETED', 'wf_ap1');
    await execution('prj_ap', 'c2', 'WAITING', 'wf_ap2');
    // a run of starts may ask a pair more than once
    const pairs = await store.activePairs(ds.manager, [
      { workflowId: 'wf_ap1', contactId: 'c1' },
      { workflowId: 'wf_ap1', contactId: 'c1' },
      { workflowId: 'wf_ap1', contactId: 'c2' },
      { workflowId: 'wf_ap2', contactId: 'c1' },
    ]);
    expect(pairs).toEqual([{ workflowId: 'wf_ap1', contactId: 'c1' }]);
  });

  it("records contacts' first entries: answers the pairs entered now, not those entered before", async () => {
    const entry = (workflowId: string, contactId: string) => ({ workflowId, contactId, projectId: 'prj_en' });
    expect(await ds.transaction((m) => store.enter(m, [entry('wf_en', 'c1')]))).toEqual([
      { workflowId: 'wf_en', contactId: 'c1' },
    ]);
    const again = await ds.transaction((m) => store.enter(m, [entry('wf_en', 'c1'), entry('wf_en', 'c2')]));
    expect(again).toEqual([{ workflowId: 'wf_en', contactId: 'c2' }]);
    expect(await ds.getRepository(WorkflowEntry).countBy({ workflowId: 'wf_en' })).toBe(2);
  });

  it('inserts executions with one statement and answers their start times (database clock)', async () => {
    const fresh = ['wfx_ins_1', 'wfx_ins_2'].map((id) =>
      Object.assign(new WorkflowExecution(), {
        id,
        projectId: 'prj_in',
        workflowId: 'wf_in',
        graphVersion: 3,
        contactId: id,
        email: 'ada@example.com',
        status: 'WAITING',
        trigger: 'signup',
        triggerEventId: id === 'wfx_ins_1' ? 'evt_in' : null,
        event: { plan: 'pro' },
        context: {},
      }),
    );
    const [{ now }] = await ds.query(`SELECT now() AS now`);
    const startedAt = await ds.transaction((m) => store.insert(m, fresh));
    expect([...startedAt.keys()].sort()).toEqual(['wfx_ins_1', 'wfx_ins_2']);
    expect(startedAt.get('wfx_ins_1')!.getTime()).toBeGreaterThanOrEqual((now as Date).getTime());
    const row = await ds.getRepository(WorkflowExecution).findOneByOrFail({ id: 'wfx_ins_1' });
    expect(row).toMatchObject({
      graphVersion: 3,
      status: 'WAITING',
      triggerEventId: 'evt_in',
      event: { plan: 'pro' },
      context: {},
      startedAt: startedAt.get('wfx_ins_1'),
      finishedAt: null,
    });
  });

  it('locks the executions asked for and answers them as entities', async () => {
    const a = await execution('prj_li', 'c1', 'RUNNING');
    const b = await execution('prj_li', 'c2', 'WAITING');
    await ds.transaction(async (m) => {
      const rows = await store.lockByIds(m, [b.id, a.id, b.id, 'wfx_none']);
      expect(rows.map((e) => e.id)).toEqual([a.id, b.id]);
      expect(rows[0]).toBeInstanceOf(WorkflowExecution);
      expect(rows[0]).toMatchObject({ workflowId: a.workflowId, contactId: 'c1', status: 'RUNNING', context: {} });
      await expect(
        ds.query(`SELECT id FROM ${tableName(ds, WorkflowExecution)} WHERE id = $1 FOR UPDATE NOWAIT`, [a.id]),
      ).rejects.toMatchObject({ code: '55P03' });
    });
  });

  it('applies changes: a null context or reason keeps the current one; an ended execution is finished now', async () => {
    const a = await execution('prj_up', 'c1', 'RUNNING');
    const b = await execution('prj_up', 'c2', 'WAITING');
    await ds.query(
      `UPDATE ${tableName(ds, WorkflowExecution)} SET context = '{"kept":1}', reason = 'old' WHERE id = $1`,
      [b.id],
    );
    await ds.transaction((m) =>
      store.update(m, [
        {
          id: a.id,
          status: 'WAITING',
          currentStepId: 'wfs_2',
          context: { plan: 'pro' },
          reason: null,
          finished: false,
        },
        { id: b.id, status: 'CANCELLED', currentStepId: null, context: null, reason: null, finished: true },
      ]),
    );
    const read = (id: string) => ds.getRepository(WorkflowExecution).findOneByOrFail({ id });
    expect(await read(a.id)).toMatchObject({
      status: 'WAITING',
      currentStepId: 'wfs_2',
      context: { plan: 'pro' },
      reason: null,
      finishedAt: null,
    });
    expect(await read(b.id)).toMatchObject({
      status: 'CANCELLED',
      currentStepId: null,
      context: { kept: 1 },
      reason: 'old',
      finishedAt: expect.any(Date),
    });
  });

  it("locks up to a limit of the workflow's RUNNING and WAITING executions, in id order, and counts them", async () => {
    const a = await execution('prj_wa', 'c1', 'RUNNING', 'wf_wa');
    const b = await execution('prj_wa', 'c2', 'WAITING', 'wf_wa');
    const c = await execution('prj_wa', 'c3', 'WAITING', 'wf_wa');
    await execution('prj_wa', 'c4', 'COMPLETED', 'wf_wa');
    await execution('prj_wa_other', 'c5', 'RUNNING', 'wf_wa');
    await execution('prj_wa', 'c6', 'RUNNING', 'wf_wa_other');
    const ids = (rows: WorkflowExecution[]) => rows.map((e) => e.id);
    expect(ids(await ds.transaction((m) => store.lockActiveOfWorkflow(m, 'prj_wa', 'wf_wa', 2)))).toEqual([a.id, b.id]);
    expect(ids(await ds.transaction((m) => store.lockActiveOfWorkflow(m, 'prj_wa', 'wf_wa', 500)))).toEqual([
      a.id,
      b.id,
      c.id,
    ]);
    // the count is of the workflow, whatever the project (its id is unique)
    expect(await store.activeCount(ds.manager, 'wf_wa')).toBe(4);
    expect(await store.activeCount(ds.manager, 'wf_none')).toBe(0);
  });

  it("deletes a workflow's step runs, executions and entries, and nothing of another workflow", async () => {
    const save = async (workflowId: string) => {
      const e = await execution('prj_dl', 'c1', 'COMPLETED', workflowId);
      await ds.getRepository(WorkflowStepRun).save({
        id: `wfr_${++seq}`,
        projectId: 'prj_dl',
        executionId: e.id,
        contactId: 'c1',
        stepId: 'wfs_1',
        stepType: 'DELAY' as const,
        status: 'DONE' as const,
        dueAt: null,
        waitEvent: null,
        resumedWith: null,
      });
      await store.enter(ds.manager, [{ workflowId, contactId: 'c1', projectId: 'prj_dl' }]);
      return e;
    };
    const gone = await save('wf_dl');
    const kept = await save('wf_dl_kept');
    await ds.transaction((m) => store.deleteOf(m, 'wf_dl'));
    const left = (workflowId: string, executionId: string) =>
      Promise.all([
        ds.getRepository(WorkflowExecution).countBy({ workflowId }),
        ds.getRepository(WorkflowStepRun).countBy({ executionId }),
        ds.getRepository(WorkflowEntry).countBy({ workflowId }),
      ]);
    expect(await left('wf_dl', gone.id)).toEqual([0, 0, 0]);
    expect(await left('wf_dl_kept', kept.id)).toEqual([1, 1, 1]);
  });
});
