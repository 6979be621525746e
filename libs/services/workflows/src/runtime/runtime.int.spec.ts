import type { HeraldRuntime } from '@herald/core';
import { Outbox, OutboxMessage } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema, tableName } from '@herald/persistence';
import { createTemplateRenderPool } from '@herald/templating';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import type { ContactsClient, IntakeItem, IntakeResult, SendingClient } from '../clients/internal-clients.js';
import { WORKFLOWS } from '../consumer.js';
import { Workflow, WorkflowStep, WorkflowTransition } from '../definitions/workflow.entity.js';
import { WorkflowStore } from '../definitions/workflow-store.js';
import { WorkflowExecution, WorkflowStepRun } from '../executions/execution.entity.js';
import { ExecutionStarter } from '../executions/execution-starter.js';
import { ExecutionsStore } from '../executions/executions.store.js';
import { StepRunsStore } from '../executions/step-runs.store.js';
import { StepScheduler } from '../executions/step-scheduler.js';
import { workflowsSchema } from '../workflows.module.js';
import { WorkflowsSettings } from '../workflows.settings.js';
import { StepEffects } from './step-effects.js';
import { StepRunner } from './step-runner.js';

/** Sending's intake as the contract says: a key seen before is a duplicate, never a second email. */
class FakeIntake {
  readonly queued = new Map<string, number>();
  calls = 0;
  onCall: () => Promise<void> = async () => {};
  async send(_projectId: string, items: IntakeItem[]): Promise<IntakeResult[]> {
    this.calls++;
    const results = items.map((i): IntakeResult => {
      if (this.queued.has(i.key)) return { key: i.key, status: 'duplicate', emailId: `eml_${i.key}` };
      this.queued.set(i.key, Date.now());
      return { key: i.key, status: 'queued', emailId: `eml_${i.key}` };
    });
    await this.onCall();
    return results;
  }
  async template() {
    return { id: 'tpl_1', name: 't', type: 'transactional' as const, subject: 'Hi' };
  }
}

/**
 * The runtime on PostgreSQL: due runs are claimed once across runners (SKIP LOCKED), timers never
 * fire early and are not late, a batch whose transaction dies after its emails went to the intake
 * is run again with the same keys (so each email exists once), and the start rules hold under
 * repeats (one execution per event, re-entry).
 */
describe('workflows runtime (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let ds2: DataSource;
  const project = 'prj_wf_int';
  const intake = new FakeIntake();
  const runtime = { mode: 'standalone', internalJwtSecret: 'x'.repeat(32) } as unknown as HeraldRuntime;
  const settings = Object.assign(new WorkflowsSettings(), {
    WORKFLOWS_POLL_MS: 50,
    WORKFLOWS_BATCH: 50,
    WORKFLOWS_CONCURRENCY: 2,
  });
  let scheduler: StepScheduler;
  let starter: ExecutionStarter;
  /** The tables the assertions read, as the service names them. */
  let executions: string;
  let stepRuns: string;
  let outbox: string;
  const runners: StepRunner[] = [];

  /** The scheduler as the module wires it, on the outbox of `source`. */
  const schedulerOf = (source: DataSource) => {
    const outbox = new Outbox(WORKFLOWS, source);
    return new StepScheduler(outbox, new WorkflowStore(outbox), new ExecutionsStore(), new StepRunsStore());
  };

  const makeRunner = (source: DataSource) => {
    const s = schedulerOf(source);
    const effects = new StepEffects(
      {} as ContactsClient,
      intake as unknown as SendingClient,
      settings,
      runtime,
      createTemplateRenderPool(0),
    );
    const r = new StepRunner(source, s, effects, settings, new StepRunsStore(), new ExecutionsStore());
    runners.push(r);
    return r;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(workflowsSchema, db.url, 6).initialize();
    await migrateServiceSchema(ds);
    ds2 = await createServiceDataSource(workflowsSchema, db.url, 4).initialize();
    scheduler = schedulerOf(ds);
    starter = new ExecutionStarter(scheduler, new ExecutionsStore());
    executions = tableName(ds, WorkflowExecution);
    stepRuns = tableName(ds, WorkflowStepRun);
    outbox = tableName(ds, OutboxMessage);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.onApplicationShutdown()));
    intake.onCall = async () => {};
  });
  afterAll(async () => {
    await ds2.destroy();
    await ds.destroy();
    await db.drop();
  });

  let seq = 0;
  /** SEND_EMAIL → DELAY (seconds) → SEND_EMAIL. */
  async function emailDelayEmail(delaySeconds: number, allowReentry = false): Promise<Workflow> {
    const id = `wf_int_${++seq}`;
    const w = await ds.getRepository(Workflow).save({
      id,
      projectId: project,
      name: id,
      description: null,
      triggerType: 'EVENT' as const,
      triggerConfig: { eventName: 'signup' },
      eventName: 'signup',
      enabled: true,
      allowReentry,
      graphVersion: 1,
    });
    const steps = [
      { id: `${id}_a`, type: 'SEND_EMAIL' as const, config: { templateId: 'tpl_1' } },
      { id: `${id}_d`, type: 'DELAY' as const, config: { amount: delaySeconds, unit: 'seconds' } },
      { id: `${id}_b`, type: 'SEND_EMAIL' as const, config: { templateId: 'tpl_1' } },
    ];
    await ds
      .getRepository(WorkflowStep)
      .save(steps.map((s, i) => ({ ...s, projectId: project, workflowId: id, name: s.id, position: i })));
    await ds.getRepository(WorkflowTransition).save([
      { id: `${id}_t1`, projectId: project, workflowId: id, fromStepId: `${id}_a`, toStepId: `${id}_d`, branch: '' },
      { id: `${id}_t2`, projectId: project, workflowId: id, fromStepId: `${id}_d`, toStepId: `${id}_b`, branch: '' },
    ]);
    return w;
  }

  const start = (w: Workflow, contact: string, eventId: string | null) =>
    ds.transaction((m) =>
      starter.start(m, w, {
        contactId: contact,
        email: `${contact}@example.com`,
        trigger: 'signup',
        triggerEventId: eventId,
        event: {},
        context: {},
      }),
    );
  const statuses = async (w: Workflow) =>
    Object.fromEntries(
      (
        await ds.query(`SELECT status, count(*)::int AS n FROM ${executions} WHERE workflow_id = $1 GROUP BY 1`, [w.id])
      ).map((r: { status: string; n: number }) => [r.status, r.n]),
    );

  it('one event starts at most one execution per workflow, however often it is delivered', async () => {
    const w = await emailDelayEmail(60);
    const results = await Promise.all([start(w, 'c1', 'evt-1'), start(w, 'c1', 'evt-1'), start(w, 'c1', 'evt-1')]);
    expect(results.filter((r) => r.started)).toHaveLength(1);
    expect(await statuses(w)).toEqual({ RUNNING: 1 });
  });

  it('allowReentry false: once per contact; true: again, but not while one is active', async () => {
    const once = await emailDelayEmail(60, false);
    expect((await start(once, 'c2', 'e1')).started).toBe(true);
    await ds.query(`UPDATE ${executions} SET status = 'COMPLETED' WHERE workflow_id = $1`, [once.id]);
    expect(await start(once, 'c2', 'e2')).toMatchObject({ started: false, reason: 'reentry' });
    const again = await emailDelayEmail(60, true);
    expect((await start(again, 'c2', 'e3')).started).toBe(true);
    expect(await start(again, 'c2', 'e4')).toMatchObject({ started: false, reason: 'active' });
    await ds.query(`UPDATE ${executions} SET status = 'COMPLETED' WHERE workflow_id = $1`, [again.id]);
    expect((await start(again, 'c2', 'e5')).started).toBe(true);
  });

  const request = (contact: string, eventId: string | null) => ({
    contactId: contact,
    email: `${contact}@example.com`,
    trigger: 'signup',
    triggerEventId: eventId,
    event: {},
    context: {},
  });
  const startRun = (starts: { w: Workflow; contact: string; eventId: string | null }[]) =>
    ds.transaction((m) =>
      starter.startMany(
        m,
        starts.map((s) => ({ w: s.w, req: request(s.contact, s.eventId) })),
      ),
    );

  it('a run of starts in one transaction decides as one start after the other: a redelivered event, an active pair and a past entry start nothing', async () => {
    const once = await emailDelayEmail(60, false);
    const again = await emailDelayEmail(60, true);
    expect((await start(once, 'b0', 'be0')).started).toBe(true);
    await ds.query(`UPDATE ${executions} SET status = 'COMPLETED' WHERE workflow_id = $1`, [once.id]);
    expect((await start(again, 'b1', 'be1')).started).toBe(true);
    const results = await startRun([
      { w: once, contact: 'b0', eventId: 'be2' }, // ran it before, no re-entry
      { w: again, contact: 'b1', eventId: 'be1' }, // the same event again
      { w: again, contact: 'b1', eventId: 'be3' }, // active since be1
      { w: again, contact: 'b2', eventId: 'be4' },
      { w: again, contact: 'b2', eventId: 'be5' }, // active since be4, in this run
      { w: once, contact: 'b3', eventId: 'be6' },
      { w: once, contact: 'b3', eventId: 'be7' }, // active since be6, in this run
    ]);
    expect(results.map((r) => (r.started ? 'started' : r.reason))).toEqual([
      'reentry',
      'duplicate',
      'active',
      'started',
      'active',
      'started',
      'active',
    ]);
    expect(await statuses(again)).toEqual({ RUNNING: 2 });
    expect(await statuses(once)).toEqual({ COMPLETED: 1, RUNNING: 1 });
    const firstRuns = await ds.query(
      `SELECT e.trigger_event_id AS t, r.step_type AS type, r.status FROM ${stepRuns} r
       JOIN ${executions} e ON e.id = r.execution_id
       WHERE e.trigger_event_id IN ('be4', 'be6') ORDER BY 1`,
    );
    expect(firstRuns).toEqual([
      { t: 'be4', type: 'SEND_EMAIL', status: 'PENDING' },
      { t: 'be6', type: 'SEND_EMAIL', status: 'PENDING' },
    ]);
  });

  it('concurrent runs of starts over the same contacts start each pair once and do not deadlock', async () => {
    const w = await emailDelayEmail(60, true);
    const contacts = Array.from({ length: 40 }, (_, i) => `cc${i}`);
    const runs = [contacts, [...contacts].reverse(), contacts.slice(10), contacts.slice(0, 30).reverse()];
    const results = await Promise.all(
      runs.map((cs, r) => startRun(cs.map((c) => ({ w, contact: c, eventId: `cce${r}_${c}` })))),
    );
    expect(results.flat().filter((x) => x.started)).toHaveLength(contacts.length);
    expect(await statuses(w)).toEqual({ RUNNING: contacts.length });
  });

  it('two runners claim each due run once; a DELAY never fires early and is at most 2 s late; each email goes out once', async () => {
    const w = await emailDelayEmail(2);
    const n = 300;
    for (let i = 0; i < n; i += 50)
      await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, k) => start(w, `r${i + k}`, `re${i + k}`)));
    for (const r of [makeRunner(ds), makeRunner(ds2)]) r.onApplicationBootstrap();
    await eventually(async () => (await statuses(w)).COMPLETED === n, { timeoutMs: 30_000 });
    const keys = [...intake.queued.keys()].filter((k) => k.includes(':' + w.id + '_'));
    expect(keys).toHaveLength(2 * n);
    const [timing] = await ds.query(
      `SELECT count(*) FILTER (WHERE finished_at < started_at + interval '2 seconds')::int AS early,
              max(extract(epoch FROM finished_at - due_at))::float AS late_max,
              count(*) FILTER (WHERE attempts <> 1)::int AS repeated
       FROM ${stepRuns} WHERE step_type = 'DELAY' AND execution_id IN (SELECT id FROM ${executions} WHERE workflow_id = $1)`,
      [w.id],
    );
    expect(timing.early).toBe(0);
    expect(timing.repeated).toBe(0);
    expect(timing.late_max).toBeLessThan(2);
  });

  it('a batch whose transaction dies after the intake call runs again with the same keys: every email exists once', async () => {
    const w = await emailDelayEmail(1);
    const n = 100;
    await Promise.all(Array.from({ length: n }, (_, k) => start(w, `k${k}`, `ke${k}`)));
    let kills = 0;
    intake.onCall = async () => {
      if (kills >= 3) return;
      kills++;
      // the runner's connection dies mid-transaction (as under SIGKILL): nothing of the batch commits
      await ds.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()`,
      );
    };
    makeRunner(ds).onApplicationBootstrap();
    await eventually(async () => (await statuses(w)).COMPLETED === n, { timeoutMs: 30_000 });
    expect(kills).toBeGreaterThan(0);
    const keys = [...intake.queued.keys()].filter((k) => k.includes(':' + w.id + '_'));
    expect(new Set(keys).size).toBe(2 * n);
    const [runs] = await ds.query(
      `SELECT count(*)::int AS n FROM ${stepRuns} r JOIN ${executions} e ON e.id = r.execution_id WHERE e.workflow_id = $1 AND r.status = 'DONE'`,
      [w.id],
    );
    expect(runs.n).toBe(3 * n);
  });

  it('a WAIT_FOR_EVENT without a timeout has no due time: never claimed by itself, workflow.waiting without dueAt; its event resumes it', async () => {
    const id = `wf_int_${++seq}`;
    const w = await ds.getRepository(Workflow).save({
      id,
      projectId: project,
      name: id,
      description: null,
      triggerType: 'EVENT' as const,
      triggerConfig: { eventName: 'signup' },
      eventName: 'signup',
      enabled: true,
      allowReentry: false,
      graphVersion: 1,
    });
    const steps = [
      { id: `${id}_w`, type: 'WAIT_FOR_EVENT' as const, config: { eventName: 'paid' } },
      { id: `${id}_x`, type: 'EXIT' as const, config: { reason: 'paid' } },
    ];
    await ds
      .getRepository(WorkflowStep)
      .save(steps.map((s, i) => ({ ...s, projectId: project, workflowId: id, name: s.id, position: i })));
    await ds.getRepository(WorkflowTransition).save([
      {
        id: `${id}_t`,
        projectId: project,
        workflowId: id,
        fromStepId: `${id}_w`,
        toStepId: `${id}_x`,
        branch: 'event',
      },
    ]);
    const started = await start(w, 'nt1', 'nte1');
    expect(started.started).toBe(true);
    const execution = started.started ? started.execution.id : '';
    const run = async () =>
      (await ds.query(`SELECT status, due_at, outcome FROM ${stepRuns} WHERE step_id = $1`, [`${id}_w`]))[0];
    expect(await run()).toEqual({ status: 'PENDING', due_at: null, outcome: null });
    expect(await statuses(w)).toEqual({ WAITING: 1 });
    const [waiting] = await ds.query(
      `SELECT envelope FROM ${outbox} WHERE topic = 'workflow.waiting' AND envelope->'payload'->>'executionId' = $1`,
      [execution],
    );
    expect(waiting.envelope.payload).toMatchObject({ stepId: `${id}_w`, stepType: 'WAIT_FOR_EVENT' });
    expect(waiting.envelope.payload).not.toHaveProperty('dueAt');
    // the runner's claim passes it by, however often it looks
    const runner = makeRunner(ds);
    await runner.tick(1000);
    expect(await run()).toMatchObject({ status: 'PENDING', due_at: null });
    // the awaited event moves due_at to now with its data (ExecutionsStore.resume)
    await ds.query(`UPDATE ${stepRuns} SET due_at = now(), resumed_with = '{"amount": 5}' WHERE step_id = $1`, [
      `${id}_w`,
    ]);
    await eventually(async () => {
      await runner.tick(1000);
      return (await statuses(w)).EXITED === 1;
    });
    expect(await run()).toMatchObject({ status: 'DONE', outcome: 'event' });
  });

  it('a cancelled waiting execution never runs its next step', async () => {
    const w = await emailDelayEmail(1);
    await start(w, 'x1', 'xe1');
    makeRunner(ds).onApplicationBootstrap();
    await eventually(async () => (await statuses(w)).WAITING === 1);
    await ds.transaction(async (m) => {
      await m.query(`SELECT id FROM ${executions} WHERE workflow_id = $1 FOR UPDATE`, [w.id]);
      await m.query(`UPDATE ${executions} SET status = 'CANCELLED' WHERE workflow_id = $1`, [w.id]);
    });
    await eventually(async () => {
      const [r] = await ds.query(
        `SELECT status FROM ${stepRuns} WHERE step_type = 'DELAY' AND execution_id IN (SELECT id FROM ${executions} WHERE workflow_id = $1)`,
        [w.id],
      );
      return r.status === 'CANCELLED';
    });
    expect([...intake.queued.keys()].filter((k) => k.endsWith(`${w.id}_b`))).toEqual([]);
  });
});
