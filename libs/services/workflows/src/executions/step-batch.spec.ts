import type { GraphStep } from '../definitions/graph.js';
import { StepBatch, waitOf } from './step-batch.js';
import type { WorkflowExecution } from './execution.entity.js';

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
