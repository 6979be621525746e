import type { EventEnvelope, WorkflowExecutionStatus } from '@herald/contracts';
import { newId } from '@herald/core';
import { tableName } from '@herald/persistence';
import type { EntityManager } from 'typeorm';
import type { GraphStep } from '../definitions/graph.js';
import { delayMs, hasTimeout } from '../definitions/step-config.js';
import { executionEvents } from './execution-events.js';
import { WorkflowExecution, WorkflowStepRun } from './execution.entity.js';

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

interface NewRun {
  id: string;
  projectId: string;
  executionId: string;
  contactId: string;
  stepId: string;
  stepType: string;
  /** `null`: no due time (a WAIT_FOR_EVENT without a timeout). */
  ms: number | null;
  waitEvent: string | null;
  waiting?: { e: WorkflowExecution; workflowName: string; step: GraphStep };
}

interface ExecutionChange {
  status: WorkflowExecutionStatus;
  currentStepId: string | null;
  context: Record<string, unknown> | null;
  reason: string | null;
  finished: boolean;
}

/**
 * The writes of one unit of work (a batch of step runs, a start, a cancel), collected and then
 * applied with one multi-row statement per kind (`unnest`), in the caller's transaction: finished
 * and retried runs, entered steps (new runs: the timers), execution changes, and the workflow.*
 * events through the outbox.
 */
export class StepBatch {
  private readonly finished: {
    id: string;
    status: string;
    outcome: string;
    error: string | null;
    detail: string | null;
  }[] = [];
  private readonly retried: { id: string; error: string; detail: string | null; ms: number }[] = [];
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
   * `fresh`: the execution row is not written yet (its insert carries the status).
   */
  enter(e: WorkflowExecution, workflowName: string, step: GraphStep, fresh = false): void {
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
      status: e.status,
      currentStepId: e.currentStepId,
      context: context || prev?.context ? e.context : null,
      reason: e.reason,
      finished: finished || (prev?.finished ?? false),
    });
  }

  async flush(m: EntityManager, publish: (m: EntityManager, events: EventEnvelope[]) => Promise<void>): Promise<void> {
    const f = this.finished;
    if (f.length)
      await m.query(
        `UPDATE ${tableName(m, WorkflowStepRun)} r SET status = x.status, outcome = x.outcome, error = x.error, detail = x.detail::jsonb,
           attempts = r.attempts + 1, finished_at = now()
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS x(id, status, outcome, error, detail) WHERE r.id = x.id`,
        [
          f.map((x) => x.id),
          f.map((x) => x.status),
          f.map((x) => x.outcome),
          f.map((x) => x.error),
          f.map((x) => x.detail),
        ],
      );
    const r = this.retried;
    if (r.length)
      await m.query(
        `UPDATE ${tableName(m, WorkflowStepRun)} s SET attempts = s.attempts + 1, error = x.error, detail = x.detail::jsonb,
           due_at = now() + x.ms * interval '1 millisecond'
         FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[]) AS x(id, error, detail, ms) WHERE s.id = x.id`,
        [r.map((x) => x.id), r.map((x) => x.error), r.map((x) => x.detail), r.map((x) => x.ms)],
      );
    const n = this.runs;
    if (n.length) {
      // a null ms is a null due_at: never claimed (`due_at <= now()`) until the awaited event sets it
      const rows = await m.query<{ id: string; due_at: Date | null }[]>(
        `INSERT INTO ${tableName(m, WorkflowStepRun)} (id, project_id, execution_id, contact_id, step_id, step_type, status, due_at, wait_event)
         SELECT x.id, x.p, x.e, x.c, x.s, x.t, 'PENDING', now() + x.ms * interval '1 millisecond', x.w
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::text[]) AS x(id, p, e, c, s, t, ms, w)
         RETURNING id, due_at`,
        [
          n.map((x) => x.id),
          n.map((x) => x.projectId),
          n.map((x) => x.executionId),
          n.map((x) => x.contactId),
          n.map((x) => x.stepId),
          n.map((x) => x.stepType),
          n.map((x) => x.ms),
          n.map((x) => x.waitEvent),
        ],
      );
      const due = new Map(rows.map((x) => [x.id, x.due_at]));
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
    const c = [...this.changes];
    if (c.length)
      await m.query(
        `UPDATE ${tableName(m, WorkflowExecution)} e SET status = x.status, current_step_id = x.cur,
           context = coalesce(x.ctx::jsonb, e.context), reason = coalesce(x.reason, e.reason),
           finished_at = CASE WHEN x.fin THEN now() ELSE e.finished_at END
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bool[]) AS x(id, status, cur, ctx, reason, fin) WHERE e.id = x.id`,
        [
          c.map(([id]) => id),
          c.map(([, x]) => x.status),
          c.map(([, x]) => x.currentStepId),
          c.map(([, x]) => (x.context ? JSON.stringify(x.context) : null)),
          c.map(([, x]) => x.reason),
          c.map(([, x]) => x.finished),
        ],
      );
    if (this.events.length) await publish(m, this.events);
  }
}
