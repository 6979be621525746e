import { createServiceDataSource, migrateServiceSchema, tableName } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { workflowsSchema } from '../workflows.module.js';
import { WorkflowStepRun, type StepRunStatus } from './execution.entity.js';
import { StepRunsStore } from './step-runs.store.js';

/** The runtime's step runs on PostgreSQL: claimed when due, finished, retried, entered, cancelled. */
describe('StepRunsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new StepRunsStore();
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
  // each test claims from an empty table: a run of another test is never due in this one
  beforeEach(() => ds.query(`DELETE FROM ${tableName(ds, WorkflowStepRun)}`));

  /** A run of `executionId` due `inMs` from the database's now (null: no due time). */
  const run = async (executionId: string, inMs: number | null, status: StepRunStatus = 'PENDING') => {
    const id = `wfr_${String(++seq).padStart(4, '0')}`;
    await ds.query(
      `INSERT INTO ${tableName(ds, WorkflowStepRun)} (id, project_id, execution_id, contact_id, step_id, step_type, status, due_at)
       VALUES ($1, 'prj_1', $2, 'c1', 'wfs_1', 'DELAY', $3, now() + $4 * interval '1 millisecond')`,
      [id, executionId, status, inMs],
    );
    return id;
  };
  const read = (id: string) => ds.getRepository(WorkflowStepRun).findOneByOrFail({ id });
  const dbNow = async (): Promise<number> => ((await ds.query(`SELECT now() AS now`))[0].now as Date).getTime();

  /** Runs `fn` while another transaction holds the run `id` locked. */
  const whileLocked = async <T>(id: string, fn: () => Promise<T>): Promise<T> => {
    const holder = ds.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await holder.query(`SELECT id FROM ${tableName(ds, WorkflowStepRun)} WHERE id = $1 FOR UPDATE`, [id]);
      const out = await fn();
      await holder.commitTransaction();
      return out;
    } finally {
      await holder.release();
    }
  };

  it('claims due PENDING runs oldest due first, up to the limit; never a future one, one without a due time or one done', async () => {
    const late = await run('wfx_1', -5000);
    const due = await run('wfx_2', -1000);
    const older = await run('wfx_3', -9000);
    await run('wfx_4', 60_000);
    await run('wfx_5', null);
    await run('wfx_6', -20_000, 'DONE');
    const claimed = await ds.transaction((m) => store.claimDue(m, 2));
    expect(claimed.map((r) => r.id)).toEqual([older, late]);
    expect(claimed[0]).toBeInstanceOf(WorkflowStepRun);
    expect(claimed[0]).toMatchObject({ executionId: 'wfx_3', stepId: 'wfs_1', stepType: 'DELAY', attempts: 0 });
    expect((await ds.transaction((m) => store.claimDue(m, 10))).map((r) => r.id)).toEqual([older, late, due]);
  });

  it('passes by a due run another runner holds', async () => {
    const held = await run('wfx_1', -2000);
    const free = await run('wfx_2', -1000);
    const claimed = await whileLocked(held, () => ds.transaction((m) => store.claimDue(m, 10)));
    expect(claimed.map((r) => r.id)).toEqual([free]);
  });

  it('cancels the runs asked for, now; none asked changes nothing', async () => {
    const a = await run('wfx_1', -1000);
    const b = await run('wfx_1', -1000);
    await ds.transaction((m) => store.cancel(m, [a]));
    await ds.transaction((m) => store.cancel(m, []));
    expect(await read(a)).toMatchObject({ status: 'CANCELLED', finishedAt: expect.any(Date) });
    expect(await read(b)).toMatchObject({ status: 'PENDING', finishedAt: null });
  });

  it("cancels the executions' PENDING runs, passing by one a runner holds and leaving done ones and others' alone", async () => {
    const pending = await run('wfx_c1', 60_000);
    const held = await run('wfx_c1', -1000);
    const done = await run('wfx_c2', -1000, 'DONE');
    const other = await run('wfx_other', 60_000);
    await whileLocked(held, () => ds.transaction((m) => store.cancelPendingOf(m, ['wfx_c1', 'wfx_c2'])));
    expect((await read(pending)).status).toBe('CANCELLED');
    expect((await read(held)).status).toBe('PENDING');
    expect((await read(done)).status).toBe('DONE');
    expect((await read(other)).status).toBe('PENDING');
  });

  it('finishes runs with their status, outcome, error and detail, one attempt more each', async () => {
    const ok = await run('wfx_1', -1000);
    const failed = await run('wfx_1', -1000);
    await ds.transaction((m) =>
      store.finish(m, [
        { id: ok, status: 'DONE', outcome: 'sent', error: null, detail: JSON.stringify({ emailId: 'eml_1' }) },
        { id: failed, status: 'FAILED', outcome: 'failed', error: 'boom', detail: null },
      ]),
    );
    expect(await read(ok)).toMatchObject({
      status: 'DONE',
      outcome: 'sent',
      error: null,
      detail: { emailId: 'eml_1' },
      attempts: 1,
      finishedAt: expect.any(Date),
    });
    expect(await read(failed)).toMatchObject({ status: 'FAILED', outcome: 'failed', error: 'boom', detail: null });
  });

  it('retries a run after its backoff (database clock), PENDING, with the error and one attempt more', async () => {
    const id = await run('wfx_1', -1000);
    const before = await dbNow();
    await ds.transaction((m) =>
      store.retry(m, [{ id, error: 'HTTP 503', detail: JSON.stringify({ status: 503 }), ms: 30_000 }]),
    );
    const r = await read(id);
    expect(r).toMatchObject({ status: 'PENDING', error: 'HTTP 503', detail: { status: 503 }, attempts: 1 });
    expect(r.dueAt!.getTime()).toBeGreaterThanOrEqual(before + 30_000);
    expect(r.dueAt!.getTime()).toBeLessThan(before + 40_000);
  });

  it('enters runs PENDING, due after their wait; a run without a wait length has no due time; answers the due times', async () => {
    const before = await dbNow();
    const base = { projectId: 'prj_1', executionId: 'wfx_e', contactId: 'c1', stepType: 'WAIT_FOR_EVENT' };
    const due = await ds.transaction((m) =>
      store.enter(m, [
        { ...base, id: 'wfr_e1', stepId: 'wfs_a', ms: 0, waitEvent: null },
        { ...base, id: 'wfr_e2', stepId: 'wfs_b', ms: 60_000, waitEvent: 'paid' },
        { ...base, id: 'wfr_e3', stepId: 'wfs_c', ms: null, waitEvent: 'paid' },
      ]),
    );
    expect([...due.keys()].sort()).toEqual(['wfr_e1', 'wfr_e2', 'wfr_e3']);
    expect(due.get('wfr_e1')!.getTime()).toBeGreaterThanOrEqual(before);
    expect(due.get('wfr_e2')!.getTime() - due.get('wfr_e1')!.getTime()).toBe(60_000);
    expect(due.get('wfr_e3')).toBeNull();
    expect(await read('wfr_e2')).toMatchObject({
      status: 'PENDING',
      executionId: 'wfx_e',
      stepId: 'wfs_b',
      waitEvent: 'paid',
      attempts: 0,
      dueAt: due.get('wfr_e2'),
    });
    expect(await ds.transaction((m) => store.enter(m, []))).toEqual(new Map());
  });

  it('keeps the trace context a run was entered with, and the claim answers it (ADR 0019); an untraced run has none', async () => {
    const traceparent = `00-${'c'.repeat(32)}-${'3'.repeat(16)}-01`;
    const base = { projectId: 'prj_1', executionId: 'wfx_t', contactId: 'c1', stepType: 'SEND_EMAIL', waitEvent: null };
    await ds.transaction((m) =>
      store.enter(m, [
        { ...base, id: 'wfr_t1', stepId: 'wfs_a', ms: -1000, traceparent },
        { ...base, id: 'wfr_t2', stepId: 'wfs_b', ms: 0 },
      ]),
    );
    const claimed = await ds.transaction((m) => store.claimDue(m, 10));
    expect(claimed.map((r) => [r.id, r.traceparent])).toEqual([
      ['wfr_t1', traceparent],
      ['wfr_t2', null],
    ]);
  });
});
