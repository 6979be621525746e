import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WorkflowStepRun } from './execution.entity.js';

/** A run done with: DONE or FAILED, its outcome, error and detail (JSON text). */
export interface FinishedRun {
  id: string;
  status: string;
  outcome: string;
  error: string | null;
  detail: string | null;
}

/** A run to try again in `ms`, with the error of this attempt and its detail (JSON text). */
export interface RetriedRun {
  id: string;
  error: string;
  detail: string | null;
  ms: number;
}

/** A step entered: its run, PENDING, due in `ms` (`null`: no due time, a WAIT_FOR_EVENT without a timeout). */
export interface EnteredRun {
  id: string;
  projectId: string;
  executionId: string;
  contactId: string;
  stepId: string;
  stepType: string;
  ms: number | null;
  waitEvent: string | null;
  /** The trace the step runs in (ADR 0019), when traced. */
  traceparent?: string | null;
}

/**
 * Step runs, the runtime's unit of work and its timers: claimed when due, finished, retried, entered
 * (new runs), cancelled. Every method runs in the caller's transaction, each write with one
 * multi-row statement whatever the number of runs.
 */
@Injectable()
export class StepRunsStore {
  /**
   * Up to `limit` due PENDING runs, oldest due first, locked; a run another runner holds is passed
   * by (on the partial index of pending runs by due time).
   */
  async claimDue(m: EntityManager, limit: number): Promise<WorkflowStepRun[]> {
    const rows = await m.query<Record<string, unknown>[]>(
      `SELECT * FROM ${tableName(m, WorkflowStepRun)} WHERE status = 'PENDING' AND due_at <= now()
       ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows.map(runOf);
  }

  /** Cancels the runs of `ids` (claimed runs whose execution or step is gone). */
  async cancel(m: EntityManager, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await m.query(
      `UPDATE ${tableName(m, WorkflowStepRun)} SET status = 'CANCELLED', finished_at = now() WHERE id = ANY($1)`,
      [ids],
    );
  }

  /** Cancels the executions' PENDING runs, passing by those a runner holds right now. */
  async cancelPendingOf(m: EntityManager, executionIds: string[]): Promise<void> {
    const runs = tableName(m, WorkflowStepRun);
    await m.query(
      `UPDATE ${runs} SET status = 'CANCELLED', finished_at = now()
       WHERE id IN (SELECT id FROM ${runs} WHERE execution_id = ANY($1) AND status = 'PENDING' FOR UPDATE SKIP LOCKED)`,
      [executionIds],
    );
  }

  /** Records runs' ends (one more attempt each, finished now). */
  async finish(m: EntityManager, runs: FinishedRun[]): Promise<void> {
    if (runs.length === 0) return;
    await m.query(
      `UPDATE ${tableName(m, WorkflowStepRun)} r SET status = x.status, outcome = x.outcome, error = x.error, detail = x.detail::jsonb,
         attempts = r.attempts + 1, finished_at = now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS x(id, status, outcome, error, detail) WHERE r.id = x.id`,
      [
        runs.map((x) => x.id),
        runs.map((x) => x.status),
        runs.map((x) => x.outcome),
        runs.map((x) => x.error),
        runs.map((x) => x.detail),
      ],
    );
  }

  /** Makes runs due again after their backoff (one more attempt each, the error kept). */
  async retry(m: EntityManager, runs: RetriedRun[]): Promise<void> {
    if (runs.length === 0) return;
    await m.query(
      `UPDATE ${tableName(m, WorkflowStepRun)} s SET attempts = s.attempts + 1, error = x.error, detail = x.detail::jsonb,
         due_at = now() + x.ms * interval '1 millisecond'
       FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[]) AS x(id, error, detail, ms) WHERE s.id = x.id`,
      [runs.map((x) => x.id), runs.map((x) => x.error), runs.map((x) => x.detail), runs.map((x) => x.ms)],
    );
  }

  /** Inserts the entered steps' runs, PENDING; answers each one's due time by id (database clock). */
  async enter(m: EntityManager, runs: EnteredRun[]): Promise<Map<string, Date | null>> {
    if (runs.length === 0) return new Map();
    // a null ms is a null due_at: never claimed (`due_at <= now()`) until the awaited event sets it
    const rows = await m.query<{ id: string; due_at: Date | null }[]>(
      `INSERT INTO ${tableName(m, WorkflowStepRun)} (id, project_id, execution_id, contact_id, step_id, step_type, status, due_at, wait_event, traceparent)
       SELECT x.id, x.p, x.e, x.c, x.s, x.t, 'PENDING', now() + x.ms * interval '1 millisecond', x.w, x.tp
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::text[], $9::text[])
         AS x(id, p, e, c, s, t, ms, w, tp)
       RETURNING id, due_at`,
      [
        runs.map((x) => x.id),
        runs.map((x) => x.projectId),
        runs.map((x) => x.executionId),
        runs.map((x) => x.contactId),
        runs.map((x) => x.stepId),
        runs.map((x) => x.stepType),
        runs.map((x) => x.ms),
        runs.map((x) => x.waitEvent),
        runs.map((x) => x.traceparent ?? null),
      ],
    );
    return new Map(rows.map((x) => [x.id, x.due_at]));
  }
}

/** A step run from its row, as `SELECT *` answers it. */
const runOf = (r: Record<string, unknown>): WorkflowStepRun =>
  Object.assign(new WorkflowStepRun(), {
    id: r.id,
    projectId: r.project_id,
    executionId: r.execution_id,
    contactId: r.contact_id,
    stepId: r.step_id,
    stepType: r.step_type,
    status: r.status,
    dueAt: r.due_at,
    waitEvent: r.wait_event,
    resumedWith: r.resumed_with,
    attempts: r.attempts,
    traceparent: r.traceparent ?? null,
  });
