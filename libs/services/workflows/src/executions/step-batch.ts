import type { EventEnvelope, WorkflowExecutionStatus } from '@herald/contracts';
import { newId } from '@herald/core';
import type { EntityManager } from 'typeorm';
import type { GraphStep } from '../definitions/graph.js';
import { delayMs, hasTimeout } from '../definitions/step-config.js';
import { executionEvents } from './execution-events.js';
import type { WorkflowExecution } from './execution.entity.js';
import type { ExecutionChange, ExecutionsStore } from './executions.store.js';
import type { EnteredRun, FinishedRun, RetriedRun, StepRunsStore } from './step-runs.store.js';

/**
 * How long a step keeps its run pending after it is entered: a DELAY's length, a WAIT_FOR_EVENT's
 * timeout, else 0; `null` for a WAIT_FOR_EVENT without a timeout: no due time, its run waits until
 * its event arrives (and moves `due_at` to now).
 */
export function waitOf(step: GraphStep): { ms: number | null; waitEvent: string | null } {
  if (step.type === 'DELAY') return { ms: delayMs(step.config), waitEvent: null };
  if (step.type === 'WAIT_FOR_EVENT')
    return {
      ms: hasTimeout(step.config) ? (step.config.timeout as number) * 1000 : null,
      waitEvent: step.config.eventName as string,
    };
  return { ms: 0, waitEvent: null };
}

/** Whether entering the step makes the execution WAITING: a wait of some length, or none at all (no deadline). */
const waits = (ms: number | null): boolean => ms === null || ms > 0;

interface NewRun extends EnteredRun {
  waiting?: { e: WorkflowExecution; workflowName: string; step: GraphStep };
}

/** Where a batch's writes go: the stores of step runs and executions. */
export interface BatchStores {
  runs: StepRunsStore;
  executions: ExecutionsStore;
}

/**
 * The writes of one unit of work (a batch of step runs, a start, a cancel), collected and then
 * applied with one multi-row statement per kind (`unnest`), in the caller's transaction: finished
 * and retried runs, entered steps (new runs: the timers), execution changes, and the workflow.*
 * events through the outbox.
 */
export class StepBatch {
  private readonly finished: FinishedRun[] = [];
  private readonly retried: RetriedRun[] = [];
  private readonly runs: NewRun[] = [];
  private readonly changes = new Map<string, ExecutionChange>();
  readonly events: EventEnvelope[] = [];

  finishRun(
    id: string,
    status: 'DONE' | 'FAILED',
    outcome: string,
    error: string | null,
    detail?: Record<string, unknown>,
  ): void {
    this.finished.push({ id, status, outcome, error, detail: detail ? JSON.stringify(detail) : null });
  }

  retryRun(id: string, error: string, ms: number, detail?: Record<string, unknown>): void {
    this.retried.push({ id, error, ms, detail: detail ? JSON.stringify(detail) : null });
  }

  /**
   * Enters `step`: its run becomes due now, or at the end of its wait, or never by itself (a
   * WAIT_FOR_EVENT without a timeout: its event makes it due); the execution is then WAITING.
   * `fresh`: the execution row is not written yet (its insert carries the status). `traceparent`:
   * the trace the step will run in (ADR 0019): the starting event's, or the step's before it.
   */
  enter(
    e: WorkflowExecution,
    workflowName: string,
    step: GraphStep,
    fresh = false,
    traceparent: string | null = null,
  ): void {
    const { ms, waitEvent } = waitOf(step);
    e.status = waits(ms) ? 'WAITING' : 'RUNNING';
    e.currentStepId = step.id;
    this.runs.push({
      id: newId('wfr'),
      projectId: e.projectId,
      executionId: e.id,
      contactId: e.contactId,
      stepId: step.id,
      stepType: step.type,
      ms,
      waitEvent,
      traceparent,
      ...(waits(ms) ? { waiting: { e, workflowName, step } } : {}),
    });
    if (!fresh) this.change(e, false);
  }

  setContext(e: WorkflowExecution, context: Record<string, unknown>): void {
    e.context = context;
    this.change(e, false, true);
  }

  /** Ends the execution with `status` (COMPLETED, EXITED, FAILED, CANCELLED). */
  finish(
    e: WorkflowExecution,
    workflowName: string,
    status: Exclude<WorkflowExecutionStatus, 'RUNNING' | 'WAITING'>,
    reason: string | null,
  ): void {
    e.status = status;
    e.reason = reason;
    e.currentStepId = null;
    this.change(e, true);
    this.events.push(executionEvents.finished(e, workflowName, reason ? { reason } : {}));
  }

  private change(e: WorkflowExecution, finished: boolean, context = false): void {
    const prev = this.changes.get(e.id);
    this.changes.set(e.id, {
      id: e.id,
      status: e.status,
      currentStepId: e.currentStepId,
      context: context || prev?.context ? e.context : null,
      reason: e.reason,
      finished: finished || (prev?.finished ?? false),
    });
  }

  /** Applies the writes in the caller's transaction, one statement per kind, then publishes the events. */
  async flush(
    m: EntityManager,
    stores: BatchStores,
    publish: (m: EntityManager, events: EventEnvelope[]) => Promise<void>,
  ): Promise<void> {
    await stores.runs.finish(m, this.finished);
    await stores.runs.retry(m, this.retried);
    const n = this.runs;
    if (n.length) {
      const due = await stores.runs.enter(m, n);
      for (const x of n) {
        if (!x.waiting) continue;
        const dueAt = due.get(x.id);
        // no dueAt: the execution waits for an event with no deadline (the field is optional in v1)
        this.events.push(
          executionEvents.waiting(x.waiting.e, x.waiting.workflowName, {
            stepId: x.waiting.step.id,
            stepType: x.waiting.step.type,
            stepName: x.waiting.step.name,
            ...(dueAt ? { dueAt: dueAt.toISOString() } : {}),
          }),
        );
      }
    }
    await stores.executions.update(m, [...this.changes.values()]);
    if (this.events.length) await publish(m, this.events);
  }
}
