import type { WorkflowExecutionStatus } from '@herald/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { ContactsClient } from '../clients/internal-clients.js';
import { WORKFLOWS } from '../consumer.js';
import { Workflow } from '../definitions/workflow.entity.js';
import { WorkflowErrors } from '../definitions/workflow.errors.js';
import { WorkflowStore } from '../definitions/workflow-store.js';
import { ExecutionStarter } from './execution-starter.js';
import { ACTIVE_STATUSES, WorkflowExecution, WorkflowStepRun } from './execution.entity.js';
import { ExecutionsStore } from './executions.store.js';
import { RunnerWake } from './runner-wake.js';
import { StepBatch } from './step-batch.js';
import { StepRunsStore } from './step-runs.store.js';
import { StepScheduler } from './step-scheduler.js';

export interface ExecutionView {
  id: string;
  workflowId: string;
  contactId: string;
  email: string;
  status: WorkflowExecutionStatus;
  trigger: string;
  version: number;
  context: Record<string, unknown>;
  event: Record<string, unknown>;
  currentStepId: string | null;
  reason: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  steps?: {
    id: string;
    stepId: string;
    type: string;
    status: string;
    startedAt: Date;
    /** Null: a WAIT_FOR_EVENT without a timeout, waiting for its event with no deadline. */
    dueAt: Date | null;
    finishedAt: Date | null;
    outcome: string | null;
    error: string | null;
    attempts: number;
    detail: Record<string, unknown> | null;
  }[];
}

const view = (e: WorkflowExecution): ExecutionView => ({
  id: e.id,
  workflowId: e.workflowId,
  contactId: e.contactId,
  email: e.email,
  status: e.status,
  trigger: e.trigger,
  version: e.graphVersion,
  context: e.context,
  event: e.event,
  currentStepId: e.currentStepId,
  reason: e.reason,
  startedAt: e.startedAt,
  finishedAt: e.finishedAt,
});

/** Executions by hand: start, list, read with history, cancel, cancel all (docs/workflows.md). */
@Injectable()
export class ExecutionsService {
  constructor(
    @InjectDataSource(WORKFLOWS) private readonly db: DataSource,
    private readonly store: WorkflowStore,
    private readonly starter: ExecutionStarter,
    private readonly scheduler: StepScheduler,
    private readonly contacts: ContactsClient,
    private readonly runner: RunnerWake,
    private readonly executions: ExecutionsStore,
    private readonly runs: StepRunsStore,
  ) {}

  /** Starts one by hand (enabled or not), under the re-entry rules (409 when refused). */
  async start(
    projectId: string,
    workflowId: string,
    contactId: string,
    context: Record<string, unknown> = {},
    requestId?: string,
  ): Promise<ExecutionView> {
    await this.store.find(this.db.manager, projectId, workflowId);
    const contact = await this.contacts.get(projectId, contactId);
    const r = await this.db.transaction(async (m) => {
      const w = await this.store.find(m, projectId, workflowId);
      return this.starter.start(m, w, {
        contactId: contact.id,
        email: contact.email,
        trigger: 'manual',
        triggerEventId: null,
        event: {},
        context,
        ...(requestId ? { trace: { correlationId: requestId } } : {}),
      });
    });
    if (!r.started) {
      if (r.reason === 'empty') throw WorkflowErrors.field('workflowId', 'the workflow has no steps', 'WORKFLOW_EMPTY');
      throw WorkflowErrors.notStarted(
        r.reason === 'active'
          ? 'The contact already has an active execution of this workflow'
          : 'The contact already ran this workflow and allowReentry is false',
      );
    }
    this.runner.wake();
    return view(r.execution);
  }

  async list(
    projectId: string,
    workflowId: string,
    q: { status?: WorkflowExecutionStatus; limit?: number; cursor?: string },
  ) {
    await this.store.find(this.db.manager, projectId, workflowId);
    const limit = q.limit ?? 20;
    const qb = this.db
      .getRepository(WorkflowExecution)
      .createQueryBuilder('e')
      .where('e.workflow_id = :workflowId AND e.project_id = :projectId', { workflowId, projectId });
    if (q.status) qb.andWhere('e.status = :status', { status: q.status });
    const total = q.cursor ? 0 : await qb.clone().getCount();
    if (q.cursor) qb.andWhere('e.id < :cursor', { cursor: q.cursor });
    const rows = await qb
      .orderBy('e.id', 'DESC')
      .take(limit + 1)
      .getMany();
    const page = rows.slice(0, limit);
    return {
      data: page.map(view),
      cursor: page.length ? page[page.length - 1]!.id : '',
      hasMore: rows.length > limit,
      total,
    };
  }

  async get(projectId: string, workflowId: string, executionId: string): Promise<ExecutionView> {
    const e = await this.find(this.db.manager, projectId, workflowId, executionId);
    const runs = await this.db
      .getRepository(WorkflowStepRun)
      .find({ where: { executionId }, order: { startedAt: 'ASC', id: 'ASC' } });
    return {
      ...view(e),
      steps: runs.map((r) => ({
        id: r.id,
        stepId: r.stepId,
        type: r.stepType,
        status: r.status,
        startedAt: r.startedAt,
        dueAt: r.dueAt,
        finishedAt: r.finishedAt,
        outcome: r.outcome,
        error: r.error,
        attempts: r.attempts,
        detail: r.detail,
      })),
    };
  }

  async cancel(projectId: string, workflowId: string, executionId: string, requestId?: string): Promise<ExecutionView> {
    return this.db.transaction(async (m) => {
      const e = await this.find(m, projectId, workflowId, executionId, true);
      if (!ACTIVE_STATUSES.includes(e.status)) throw WorkflowErrors.notActive(e.id, e.status);
      await this.cancelLocked(m, [e], 'cancelled by request', requestId);
      return view(e);
    });
  }

  async cancelAll(projectId: string, workflowId: string, requestId?: string): Promise<{ cancelled: number }> {
    await this.store.find(this.db.manager, projectId, workflowId);
    let cancelled = 0;
    for (;;) {
      const n = await this.db.transaction(async (m) => {
        const rows = await this.executions.lockActiveOfWorkflow(m, projectId, workflowId, 500);
        await this.cancelLocked(m, rows, 'cancelled by cancel-all', requestId);
        return rows.length;
      });
      cancelled += n;
      if (n < 500) return { cancelled };
    }
  }

  /** Cancels locked active executions: their pending runs not being run right now are cancelled; a run in flight finds its execution cancelled. */
  async cancelLocked(
    m: EntityManager,
    executions: WorkflowExecution[],
    reason: string,
    requestId?: string,
  ): Promise<void> {
    if (!executions.length) return;
    await this.runs.cancelPendingOf(
      m,
      executions.map((e) => e.id),
    );
    const names = new Map<string, string>();
    const batch = new StepBatch();
    for (const e of executions) {
      if (!names.has(e.workflowId))
        names.set(e.workflowId, (await m.findOneBy(Workflow, { id: e.workflowId }))?.name ?? e.workflowId);
      batch.finish(e, names.get(e.workflowId)!, 'CANCELLED', reason);
    }
    if (requestId) batch.events.forEach((ev) => (ev.correlationId = requestId));
    await this.scheduler.flush(m, batch);
  }

  private async find(
    m: EntityManager,
    projectId: string,
    workflowId: string,
    id: string,
    lock = false,
  ): Promise<WorkflowExecution> {
    await this.store.find(m, projectId, workflowId);
    const e = await m.findOne(WorkflowExecution, {
      where: { id, workflowId, projectId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!e) throw WorkflowErrors.executionNotFound(id);
    return e;
  }
}
