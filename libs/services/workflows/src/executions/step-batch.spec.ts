import type { EntityManager } from 'typeorm';
import type { GraphStep } from '../definitions/graph.js';
import type { WorkflowExecution } from './execution.entity.js';
import type { ExecutionChange } from './executions.store.js';
import { StepBatch, waitOf, type BatchStores } from './step-batch.js';
import type { EnteredRun, FinishedRun, RetriedRun } from './step-runs.store.js';

const step = (type: GraphStep['type'], config: Record<string, unknown>): GraphStep => ({
  id: 'wfs_1',
  type,
  name: type,
  position: 0,
  config,
});

describe('entering a step: how long its run waits', () => {
  it('a WAIT_FOR_EVENT without a timeout has no due time (null), and its execution is WAITING; with one it waits its timeout', () => {
    const wait = step('WAIT_FOR_EVENT', { eventName: 'paid' });
    expect(waitOf(wait)).toEqual({ ms: null, waitEvent: 'paid' });
    expect(waitOf(step('WAIT_FOR_EVENT', { eventName: 'paid', timeout: 60 }))).toEqual({
      ms: 60_000,
      waitEvent: 'paid',
    });
    const e = { id: 'wfx_1', projectId: 'p', contactId: 'c', status: 'RUNNING' } as WorkflowExecution;
    new StepBatch().enter(e, 'w', wait, true);
    expect([e.status, e.currentStepId]).toEqual(['WAITING', 'wfs_1']);
  });
});

describe("a batch's writes: collected, then one statement per kind through the stores", () => {
  const execution = (id: string) =>
    ({
      id,
      projectId: 'p',
      workflowId: 'wf_1',
      contactId: 'c',
      email: 'c@example.com',
      status: 'RUNNING',
    }) as WorkflowExecution;

  /** The stores as a batch uses them: each call recorded; an entered run is due 1 minute from 12:00, or never. */
  function stores() {
    const calls: [string, unknown[]][] = [];
    const due = (r: EnteredRun) => (r.ms === null ? null : new Date(Date.UTC(2026, 0, 1, 12, 1)));
    const runs = {
      finish: async (_m: EntityManager, rows: FinishedRun[]) => void calls.push(['finish', rows]),
      retry: async (_m: EntityManager, rows: RetriedRun[]) => void calls.push(['retry', rows]),
      enter: async (_m: EntityManager, rows: EnteredRun[]) => {
        calls.push(['enter', rows]);
        return new Map(rows.map((r) => [r.id, due(r)]));
      },
    };
    const executions = {
      update: async (_m: EntityManager, rows: ExecutionChange[]) => void calls.push(['update', rows]),
    };
    return { calls, stores: { runs, executions } as unknown as BatchStores };
  }

  it('writes each kind once, whatever the number of runs, then publishes the events once, waiting ones with their due time', async () => {
    const { calls, stores: s } = stores();
    const batch = new StepBatch();
    const a = execution('wfx_a');
    const b = execution('wfx_b');
    batch.finishRun('wfr_1', 'DONE', 'sent', null, { emailId: 'eml_1' });
    batch.finishRun('wfr_2', 'FAILED', 'failed', 'boom');
    batch.retryRun('wfr_3', 'HTTP 503', 4000);
    batch.enter(a, 'w', step('DELAY', { amount: 1, unit: 'minutes' }));
    batch.enter(b, 'w', step('WAIT_FOR_EVENT', { eventName: 'paid' }));
    batch.setContext(b, { plan: 'pro' });
    const published: string[][] = [];
    await batch.flush({} as EntityManager, s, async (_m, events) => void published.push(events.map((e) => e.type)));
    expect(calls.map(([kind, rows]) => [kind, rows.length])).toEqual([
      ['finish', 2],
      ['retry', 1],
      ['enter', 2],
      ['update', 2],
    ]);
    expect(calls[0]![1]).toEqual([
      { id: 'wfr_1', status: 'DONE', outcome: 'sent', error: null, detail: '{"emailId":"eml_1"}' },
      { id: 'wfr_2', status: 'FAILED', outcome: 'failed', error: 'boom', detail: null },
    ]);
    expect(calls[3]![1]).toEqual([
      { id: 'wfx_a', status: 'WAITING', currentStepId: 'wfs_1', context: null, reason: undefined, finished: false },
      {
        id: 'wfx_b',
        status: 'WAITING',
        currentStepId: 'wfs_1',
        context: { plan: 'pro' },
        reason: undefined,
        finished: false,
      },
    ]);
    expect(published).toEqual([['workflow.waiting', 'workflow.waiting']]);
    const waiting = batch.events.map((e) => (e.payload as { dueAt?: string }).dueAt);
    expect(waiting).toEqual(['2026-01-01T12:01:00.000Z', undefined]);
  });

  it('a batch with nothing to write publishes nothing', async () => {
    const { stores: s } = stores();
    let published = 0;
    await new StepBatch().flush({} as EntityManager, s, async () => void published++);
    expect(published).toBe(0);
  });
});
