import {
  WorkflowFinished,
  WorkflowStarted,
  WorkflowStepCompleted,
  WorkflowWaiting,
  type EventEnvelope,
  type WorkflowExecutionV1,
} from '@herald/contracts';
import { WORKFLOWS } from '../consumer.js';
import type { WorkflowExecution } from './execution.entity.js';

type Extra = Partial<Omit<WorkflowExecutionV1, 'workflowId' | 'executionId' | 'contactId' | 'workflowName'>>;
type Trace = { correlationId?: string; causationId?: string };

const payload = (e: WorkflowExecution, workflowName: string, extra: Extra): WorkflowExecutionV1 => ({
  workflowId: e.workflowId,
  workflowName,
  executionId: e.id,
  contactId: e.contactId,
  email: e.email,
  status: e.status,
  at: new Date().toISOString(),
  ...extra,
});

/** The workflow.* events of an execution (contracts in libs/contracts/src/events/workflow-execution). */
export const executionEvents = {
  started: (e: WorkflowExecution, name: string, trace: Trace = {}): EventEnvelope =>
    WorkflowStarted.create({
      projectId: e.projectId,
      source: WORKFLOWS,
      payload: payload(e, name, { trigger: e.trigger }),
      ...trace,
    }),
  stepCompleted: (e: WorkflowExecution, name: string, extra: Extra, trace: Trace = {}): EventEnvelope =>
    WorkflowStepCompleted.create({
      projectId: e.projectId,
      source: WORKFLOWS,
      payload: payload(e, name, extra),
      ...trace,
    }),
  waiting: (e: WorkflowExecution, name: string, extra: Extra, trace: Trace = {}): EventEnvelope =>
    WorkflowWaiting.create({ projectId: e.projectId, source: WORKFLOWS, payload: payload(e, name, extra), ...trace }),
  finished: (e: WorkflowExecution, name: string, extra: Extra, trace: Trace = {}): EventEnvelope =>
    WorkflowFinished.create({ projectId: e.projectId, source: WORKFLOWS, payload: payload(e, name, extra), ...trace }),
};
