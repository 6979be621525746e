import { newId } from '@herald/core';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { entryStep } from '../definitions/graph.js';
import type { Workflow } from '../definitions/workflow.entity.js';
import { executionEvents } from './execution-events.js';
import { WorkflowExecution } from './execution.entity.js';
import { StepBatch } from './step-batch.js';
import { StepScheduler } from './step-scheduler.js';

export interface StartRequest {
  contactId: string;
  email: string;
  /** The event name, or `manual`. */
  trigger: string;
  /** The triggering event's id: one execution per workflow and event, however often it is delivered. */
  triggerEventId: string | null;
  event: Record<string, unknown>;
  context: Record<string, unknown>;
  trace?: { correlationId?: string; causationId?: string };
}

export type StartResult =
  | { started: true; execution: WorkflowExecution }
  | { started: false; reason: 'duplicate' | 'active' | 'reentry' | 'empty'; execution?: WorkflowExecution };

/**
 * Starts one contact's execution of a workflow in the caller's transaction, under the re-entry rules:
 * `allowReentry: false`, at most once per contact ever; `true`, again but not while one of theirs is
 * active; one event starts at most one execution per workflow. A transaction-scoped advisory lock per
 * workflow and contact orders concurrent starts for the same pair; the unique keys back it up.
 */
@Injectable()
export class ExecutionStarter {
  constructor(private readonly scheduler: StepScheduler) {}

  async start(m: EntityManager, w: Workflow, req: StartRequest): Promise<StartResult> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`workflows:${w.id}:${req.contactId}`]);
    if (req.triggerEventId) {
      const dup = await m.findOneBy(WorkflowExecution, { workflowId: w.id, triggerEventId: req.triggerEventId });
      if (dup) return { started: false, reason: 'duplicate', execution: dup };
    }
    const active = await m.query<{ id: string }[]>(
      `SELECT id FROM workflows.workflow_executions WHERE workflow_id = $1 AND contact_id = $2 AND status IN ('RUNNING', 'WAITING') LIMIT 1`,
      [w.id, req.contactId],
    );
    if (active.length) return { started: false, reason: 'active' };
    const entered = await m.query<unknown[]>(
      `INSERT INTO workflows.workflow_entries (workflow_id, contact_id, project_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1`,
      [w.id, req.contactId, w.projectId],
    );
    if (!w.allowReentry && entered.length === 0) return { started: false, reason: 'reentry' };
    const v = await this.scheduler.freeze(m, w);
    const first = entryStep(v.graph);
    if (!first) return { started: false, reason: 'empty' };
    const e = m.create(WorkflowExecution, {
      id: newId('wfx'),
      projectId: w.projectId,
      workflowId: w.id,
      graphVersion: v.graphVersion,
      contactId: req.contactId,
      email: req.email,
      status: 'RUNNING',
      trigger: req.trigger,
      triggerEventId: req.triggerEventId,
      event: req.event,
      context: req.context,
      currentStepId: null,
      reason: null,
      finishedAt: null,
    });
    const batch = new StepBatch();
    batch.enter(e, w.name, first, true);
    await m.insert(WorkflowExecution, e as unknown as Parameters<EntityManager['insert']>[1]);
    batch.events.unshift(executionEvents.started(e, w.name, req.trace));
    await this.scheduler.flush(m, batch);
    return { started: true, execution: e };
  }
}
