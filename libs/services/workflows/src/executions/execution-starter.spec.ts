import type { EntityManager } from 'typeorm';
import type { Graph, GraphStep } from '../definitions/graph.js';
import type { Workflow } from '../definitions/workflow.entity.js';
import { ExecutionStarter, type StartOf, type StartRequest } from './execution-starter.js';
import { WorkflowExecution } from './execution.entity.js';
import type { ExecutionsStore, WorkflowContact } from './executions.store.js';
import type { StepBatch } from './step-batch.js';
import type { RunnableVersion, StepScheduler } from './step-scheduler.js';

const pairKey = (p: WorkflowContact) => `${p.workflowId}/${p.contactId}`;
const STARTED_AT = new Date('2026-01-01T00:00:00Z');

/**
 * The executions store as the starter uses it, over rows kept in memory: the executions already
 * there (for duplicates and active pairs) and the entries; each call is recorded by name.
 */
class FakeExecutionsStore {
  readonly calls: string[] = [];
  readonly locked: WorkflowContact[][] = [];
  readonly inserted: WorkflowExecution[] = [];
  constructor(
    readonly existing: Partial<WorkflowExecution>[] = [],
    readonly entered = new Set<string>(),
  ) {}

  async lockPairs(_m: EntityManager, pairs: WorkflowContact[]) {
    this.calls.push('lockPairs');
    this.locked.push(pairs);
  }
  async ofTriggerEvents(_m: EntityManager, keys: { workflowId: string; triggerEventId: string }[]) {
    this.calls.push('ofTriggerEvents');
    return this.existing.filter((e) =>
      keys.some((k) => k.workflowId === e.workflowId && k.triggerEventId === e.triggerEventId),
    ) as WorkflowExecution[];
  }
  async activePairs(_m: EntityManager, pairs: WorkflowContact[]) {
    this.calls.push('activePairs');
    const active = new Set(
      this.existing
        .filter((e) => e.status === 'RUNNING' || e.status === 'WAITING')
        .map((e) => pairKey(e as WorkflowContact)),
    );
    return pairs.filter((p) => active.has(pairKey(p)));
  }
  async enter(_m: EntityManager, entries: WorkflowContact[]) {
    this.calls.push('enter');
    const now = entries.filter((e) => !this.entered.has(pairKey(e)));
    for (const e of now) this.entered.add(pairKey(e));
    return now.map((e) => ({ workflowId: e.workflowId, contactId: e.contactId }));
  }
  async insert(_m: EntityManager, executions: WorkflowExecution[]) {
    this.calls.push('insert');
    this.inserted.push(...executions);
    return new Map(executions.map((e) => [e.id, STARTED_AT]));
  }
}

/** The scheduler as the starter uses it: each workflow's graph frozen on demand, the flushed batches kept. */
class FakeScheduler {
  readonly frozen: string[] = [];
  readonly flushed: StepBatch[] = [];
  constructor(private readonly graphs: Record<string, Graph>) {}
  async freeze(_m: EntityManager, w: Workflow): Promise<RunnableVersion> {
    this.frozen.push(`${w.id}:${w.graphVersion}`);
    return { workflowId: w.id, name: w.name, graphVersion: w.graphVersion, graph: this.graphs[w.id]! };
  }
  async flush(_m: EntityManager, batch: StepBatch) {
    this.flushed.push(batch);
  }
}

const step = (id: string, type: GraphStep['type'], config: Record<string, unknown> = {}): GraphStep => ({
  id,
  type,
  name: id,
  position: 0,
  config,
});
const GRAPHS: Record<string, Graph> = {
  wf_email: { steps: [step('wfs_send', 'SEND_EMAIL', { templateId: 'tpl_1' })], transitions: [] },
  wf_delay: { steps: [step('wfs_wait', 'DELAY', { amount: 1, unit: 'hours' })], transitions: [] },
  wf_again: { steps: [step('wfs_send', 'SEND_EMAIL', { templateId: 'tpl_1' })], transitions: [] },
  wf_empty: { steps: [], transitions: [] },
};
const workflow = (id: string, allowReentry = false): Workflow =>
  ({ id, projectId: 'prj_1', name: `name of ${id}`, graphVersion: 2, allowReentry }) as Workflow;
const request = (contactId: string, triggerEventId: string | null = `evt_${contactId}`): StartRequest => ({
  contactId,
  email: `${contactId}@example.com`,
  trigger: triggerEventId ? 'signup' : 'manual',
  triggerEventId,
  event: { plan: 'pro' },
  context: {},
});
/** The EntityManager as the starter uses it: only to make entities (the stores do the SQL). */
const m = {
  create: (E: new () => WorkflowExecution, fields: Partial<WorkflowExecution>) => Object.assign(new E(), fields),
} as unknown as EntityManager;

function starterOver(store = new FakeExecutionsStore()) {
  const scheduler = new FakeScheduler(GRAPHS);
  const starter = new ExecutionStarter(scheduler as unknown as StepScheduler, store as unknown as ExecutionsStore);
  return { starter, store, scheduler };
}

describe('ExecutionStarter: which starts of a run go ahead, under the re-entry rules', () => {
  it('a run of starts costs the same statements whatever its length: one of each kind, one freeze per workflow version', async () => {
    const { starter, store, scheduler } = starterOver();
    const starts: StartOf[] = Array.from({ length: 50 }, (_, i) => ({
      w: workflow(i % 2 ? 'wf_email' : 'wf_delay'),
      req: request(`c${i}`),
    }));
    const results = await starter.startMany(m, starts);
    expect(results.every((r) => r.started)).toBe(true);
    expect(store.calls).toEqual(['lockPairs', 'ofTriggerEvents', 'activePairs', 'enter', 'insert']);
    expect(scheduler.frozen.sort()).toEqual(['wf_delay:2', 'wf_email:2']);
    expect(scheduler.flushed).toHaveLength(1);
    expect(store.inserted).toHaveLength(50);
  });

  it('locks every pair of the run before it looks anything up', async () => {
    const { starter, store } = starterOver();
    await starter.startMany(m, [
      { w: workflow('wf_email'), req: request('c2') },
      { w: workflow('wf_email'), req: request('c1') },
    ]);
    expect(store.locked).toEqual([
      [
        { workflowId: 'wf_email', contactId: 'c2' },
        { workflowId: 'wf_email', contactId: 'c1' },
      ],
    ]);
    expect(store.calls[0]).toBe('lockPairs');
  });

  it('an event the workflow already started is a duplicate, answered with that execution; a manual start is never one', async () => {
    const earlier = {
      id: 'wfx_old',
      workflowId: 'wf_email',
      contactId: 'c1',
      triggerEventId: 'evt_c1',
      status: 'COMPLETED' as const,
    };
    const { starter, store } = starterOver(new FakeExecutionsStore([earlier], new Set(['wf_email/c1'])));
    const [dup, manual] = await starter.startMany(m, [
      { w: workflow('wf_email'), req: request('c1') },
      { w: workflow('wf_email', true), req: request('c1', null) },
    ]);
    expect(dup).toEqual({ started: false, reason: 'duplicate', execution: earlier });
    expect(manual).toMatchObject({ started: true });
    expect(store.inserted.map((e) => e.triggerEventId)).toEqual([null]);
  });

  it('a pair with a RUNNING or WAITING execution is active; so is a pair a start earlier in the run started', async () => {
    const running = {
      id: 'wfx_run',
      workflowId: 'wf_again',
      contactId: 'c1',
      triggerEventId: 'evt_x',
      status: 'WAITING' as const,
    };
    const { starter } = starterOver(new FakeExecutionsStore([running]));
    const results = await starter.startMany(m, [
      { w: workflow('wf_again', true), req: request('c1') },
      { w: workflow('wf_again', true), req: request('c2', 'evt_a') },
      { w: workflow('wf_again', true), req: request('c2', 'evt_b') },
    ]);
    expect(results.map((r) => (r.started ? 'started' : r.reason))).toEqual(['active', 'started', 'active']);
  });

  it('a workflow without steps starts nothing and writes nothing', async () => {
    const { starter, store, scheduler } = starterOver();
    expect(await starter.start(m, workflow('wf_empty'), request('c1'))).toEqual({ started: false, reason: 'empty' });
    expect(store.calls).toEqual(['lockPairs', 'ofTriggerEvents', 'activePairs']);
    expect(scheduler.flushed).toEqual([]);
  });

  it('without allowReentry a contact who entered before is refused (reentry); with it, started again', async () => {
    const { starter, store } = starterOver(new FakeExecutionsStore([], new Set(['wf_email/c1', 'wf_again/c1'])));
    const [once, again, first] = await starter.startMany(m, [
      { w: workflow('wf_email'), req: request('c1') },
      { w: workflow('wf_again', true), req: request('c1') },
      { w: workflow('wf_email'), req: request('c2') },
    ]);
    expect(once).toEqual({ started: false, reason: 'reentry' });
    expect([again!.started, first!.started]).toEqual([true, true]);
    expect(store.inserted.map((e) => `${e.workflowId}/${e.contactId}`)).toEqual(['wf_again/c1', 'wf_email/c2']);
  });

  it('nothing is inserted when every candidate is refused for re-entry', async () => {
    const { starter, store, scheduler } = starterOver(new FakeExecutionsStore([], new Set(['wf_email/c1'])));
    await starter.start(m, workflow('wf_email'), request('c1'));
    expect(store.calls).toEqual(['lockPairs', 'ofTriggerEvents', 'activePairs', 'enter']);
    expect(scheduler.flushed).toEqual([]);
  });

  it("a started execution runs its workflow's version from its entry step (WAITING at a DELAY), started at the insert's time, its workflow.started first", async () => {
    const { starter, scheduler } = starterOver();
    const [delayed, sent] = await starter.startMany(m, [
      { w: workflow('wf_delay'), req: request('c1') },
      { w: workflow('wf_email'), req: request('c2') },
    ]);
    const e = (delayed as { execution: WorkflowExecution }).execution;
    expect(e).toBeInstanceOf(WorkflowExecution);
    expect(e).toMatchObject({
      projectId: 'prj_1',
      workflowId: 'wf_delay',
      graphVersion: 2,
      contactId: 'c1',
      email: 'c1@example.com',
      status: 'WAITING',
      currentStepId: 'wfs_wait',
      trigger: 'signup',
      triggerEventId: 'evt_c1',
      event: { plan: 'pro' },
      startedAt: STARTED_AT,
    });
    expect((sent as { execution: WorkflowExecution }).execution).toMatchObject({
      status: 'RUNNING',
      currentStepId: 'wfs_send',
    });
    expect(scheduler.flushed[0]!.events.map((ev) => ev.type)).toEqual(['workflow.started', 'workflow.started']);
  });

  it('workflow.started says RUNNING even when the entry step makes the execution WAITING at once (workflow.waiting says that)', async () => {
    const { starter, scheduler } = starterOver();
    await starter.startMany(m, [{ w: workflow('wf_delay'), req: request('c1') }]);
    const events = scheduler.flushed[0]!.events;
    expect(events.map((ev) => [ev.type, (ev.payload as { status: string }).status])).toEqual([
      ['workflow.started', 'RUNNING'],
    ]);
  });
});
