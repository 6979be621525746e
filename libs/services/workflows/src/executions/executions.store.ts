import type { WorkflowExecutionStatus } from '@herald/contracts';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WorkflowExecutionsPort } from '../definitions/workflow-executions.port.js';
import { ACTIVE_STATUSES, WorkflowEntry, WorkflowExecution, WorkflowStepRun } from './execution.entity.js';

/** A contact's event by name, as a WAIT_FOR_EVENT waits for it. */
export interface AwaitedEvent {
  projectId: string;
  contactId: string;
  name: string;
}

/** A workflow and a contact: the pair the re-entry rules are about. */
export interface WorkflowContact {
  workflowId: string;
  contactId: string;
}

/** An execution's new state, as a batch of step runs leaves it. */
export interface ExecutionChange {
  id: string;
  status: WorkflowExecutionStatus;
  currentStepId: string | null;
  /** `null`: the context stays as it is. */
  context: Record<string, unknown> | null;
  /** `null`: the reason stays as it is. */
  reason: string | null;
  /** Whether the execution ended (its `finished_at` becomes now). */
  finished: boolean;
}

/**
 * Executions and the entries of contacts into workflows: their starts (the advisory locks, the
 * duplicate and active look-ups, the entries, the inserts), their locks and changes, the runs
 * waiting for an event and their resumption, and a deleted workflow's executions. Every method runs
 * in the caller's transaction.
 */
@Injectable()
export class ExecutionsStore implements WorkflowExecutionsPort {
  /** Which of `events` a pending WAIT_FOR_EVENT run waits for, in one look (each answered once). */
  async awaited(m: EntityManager, events: AwaitedEvent[]): Promise<AwaitedEvent[]> {
    if (events.length === 0) return [];
    const rows = await m.query<{ p: string; c: string; n: string }[]>(
      `SELECT DISTINCT r.project_id AS p, r.contact_id AS c, r.wait_event AS n
       FROM ${tableName(m, WorkflowStepRun)} r JOIN unnest($1::text[], $2::text[], $3::text[]) AS x(p, c, n)
         ON r.project_id = x.p AND r.contact_id = x.c AND r.wait_event = x.n
       WHERE r.status = 'PENDING' AND r.wait_event IS NOT NULL`,
      [events.map((e) => e.projectId), events.map((e) => e.contactId), events.map((e) => e.name)],
    );
    return rows.map((r) => ({ projectId: r.p, contactId: r.c, name: r.n }));
  }

  /**
   * Resumes the contact's runs waiting for `event` and not resumed yet: due now, with the event's
   * data, in the event's trace when it is traced (ADR 0019). A run locked by a runner right now is passed by. Returns how many were resumed.
   */
  async resume(
    m: EntityManager,
    event: AwaitedEvent,
    data: Record<string, unknown>,
    traceparent?: string | null,
  ): Promise<number> {
    const runs = tableName(m, WorkflowStepRun);
    // an UPDATE answers [rows, affected] through TypeORM's PostgreSQL driver
    const [, resumed] = await m.query<[unknown[], number]>(
      `UPDATE ${runs} SET due_at = now(), resumed_with = $4, traceparent = COALESCE($5, traceparent)
       WHERE id IN (SELECT id FROM ${runs}
                    WHERE project_id = $1 AND contact_id = $2 AND wait_event = $3 AND status = 'PENDING' AND resumed_with IS NULL
                    FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [event.projectId, event.contactId, event.name, JSON.stringify(data), traceparent ?? null],
    );
    return resumed;
  }

  /** The contact's RUNNING and WAITING executions, locked (in id order). */
  lockActiveOfContact(m: EntityManager, projectId: string, contactId: string): Promise<WorkflowExecution[]> {
    return m
      .getRepository(WorkflowExecution)
      .createQueryBuilder('e')
      .setLock('pessimistic_write')
      .where(`e.project_id = :p AND e.contact_id = :c AND e.status IN ('RUNNING', 'WAITING')`, {
        p: projectId,
        c: contactId,
      })
      .orderBy('e.id')
      .getMany();
  }

  /**
   * Takes the transaction-scoped advisory lock of each workflow and contact pair, in key order
   * (one statement), so concurrent starts of a pair are ordered and concurrent runs never deadlock.
   */
  async lockPairs(m: EntityManager, pairs: WorkflowContact[]): Promise<void> {
    const locks = [...new Set(pairs.map((p) => `workflows:${p.workflowId}:${p.contactId}`))].sort();
    await m.query(`SELECT pg_advisory_xact_lock(hashtext(k)) FROM unnest($1::text[]) AS k ORDER BY k`, [locks]);
  }

  /** The executions already started by each workflow and triggering event, in one look-up. */
  async ofTriggerEvents(
    m: EntityManager,
    keys: { workflowId: string; triggerEventId: string }[],
  ): Promise<WorkflowExecution[]> {
    if (keys.length === 0) return [];
    return m
      .getRepository(WorkflowExecution)
      .createQueryBuilder('e')
      .where(`(e.workflow_id, e.trigger_event_id) IN (SELECT w, t FROM unnest(:w::text[], :t::text[]) AS x(w, t))`, {
        w: keys.map((k) => k.workflowId),
        t: keys.map((k) => k.triggerEventId),
      })
      .getMany();
  }

  /** Which of `pairs` have a RUNNING or WAITING execution, each once. */
  async activePairs(m: EntityManager, pairs: WorkflowContact[]): Promise<WorkflowContact[]> {
    const rows = await m.query<{ w: string; c: string }[]>(
      `SELECT DISTINCT e.workflow_id AS w, e.contact_id AS c FROM ${tableName(m, WorkflowExecution)} e
       JOIN unnest($1::text[], $2::text[]) AS x(w, c) ON e.workflow_id = x.w AND e.contact_id = x.c
       WHERE e.status IN ('RUNNING', 'WAITING')`,
      [pairs.map((p) => p.workflowId), pairs.map((p) => p.contactId)],
    );
    return rows.map((r) => ({ workflowId: r.w, contactId: r.c }));
  }

  /** Records the contacts' first entries into the workflows; answers the pairs entered now (not before). */
  async enter(m: EntityManager, entries: (WorkflowContact & { projectId: string })[]): Promise<WorkflowContact[]> {
    const rows = await m.query<{ w: string; c: string }[]>(
      `INSERT INTO ${tableName(m, WorkflowEntry)} (workflow_id, contact_id, project_id)
       SELECT w, c, p FROM unnest($1::text[], $2::text[], $3::text[]) AS x(w, c, p)
       ON CONFLICT DO NOTHING RETURNING workflow_id AS w, contact_id AS c`,
      [entries.map((e) => e.workflowId), entries.map((e) => e.contactId), entries.map((e) => e.projectId)],
    );
    return rows.map((r) => ({ workflowId: r.w, contactId: r.c }));
  }

  /** Inserts new executions with one statement; answers each one's `started_at` by id. */
  async insert(m: EntityManager, executions: WorkflowExecution[]): Promise<Map<string, Date>> {
    const rows = await m.query<{ id: string; started_at: Date }[]>(
      `INSERT INTO ${tableName(m, WorkflowExecution)}
         (id, project_id, workflow_id, graph_version, contact_id, email, status, trigger, trigger_event_id, event, context)
       SELECT id, p, w, v, c, em, s, t, te, ev::jsonb, cx::jsonb
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
         AS x(id, p, w, v, c, em, s, t, te, ev, cx)
       RETURNING id, started_at`,
      [
        executions.map((e) => e.id),
        executions.map((e) => e.projectId),
        executions.map((e) => e.workflowId),
        executions.map((e) => e.graphVersion),
        executions.map((e) => e.contactId),
        executions.map((e) => e.email),
        executions.map((e) => e.status),
        executions.map((e) => e.trigger),
        executions.map((e) => e.triggerEventId),
        executions.map((e) => JSON.stringify(e.event ?? {})),
        executions.map((e) => JSON.stringify(e.context ?? {})),
      ],
    );
    return new Map(rows.map((r) => [r.id, r.started_at]));
  }

  /** The executions of `ids`, locked in id order (a runner's batch). */
  async lockByIds(m: EntityManager, ids: string[]): Promise<WorkflowExecution[]> {
    const rows = await m.query<Record<string, unknown>[]>(
      `SELECT * FROM ${tableName(m, WorkflowExecution)} WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
      [ids],
    );
    return rows.map(executionOf);
  }

  /** Applies executions' changes with one statement: a null context or reason keeps the current one. */
  async update(m: EntityManager, changes: ExecutionChange[]): Promise<void> {
    if (changes.length === 0) return;
    await m.query(
      `UPDATE ${tableName(m, WorkflowExecution)} e SET status = x.status, current_step_id = x.cur,
         context = coalesce(x.ctx::jsonb, e.context), reason = coalesce(x.reason, e.reason),
         finished_at = CASE WHEN x.fin THEN now() ELSE e.finished_at END
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bool[]) AS x(id, status, cur, ctx, reason, fin) WHERE e.id = x.id`,
      [
        changes.map((x) => x.id),
        changes.map((x) => x.status),
        changes.map((x) => x.currentStepId),
        changes.map((x) => (x.context ? JSON.stringify(x.context) : null)),
        changes.map((x) => x.reason),
        changes.map((x) => x.finished),
      ],
    );
  }

  /** Up to `limit` of the workflow's RUNNING and WAITING executions, locked in id order (cancel-all). */
  lockActiveOfWorkflow(
    m: EntityManager,
    projectId: string,
    workflowId: string,
    limit: number,
  ): Promise<WorkflowExecution[]> {
    return m
      .getRepository(WorkflowExecution)
      .createQueryBuilder('e')
      .setLock('pessimistic_write')
      .where('e.workflow_id = :workflowId AND e.project_id = :projectId AND e.status IN (:...s)', {
        workflowId,
        projectId,
        s: ACTIVE_STATUSES,
      })
      .orderBy('e.id')
      .take(limit)
      .getMany();
  }

  /** How many of the workflow's executions are RUNNING or WAITING. */
  activeCount(m: EntityManager, workflowId: string): Promise<number> {
    return m
      .createQueryBuilder(WorkflowExecution, 'e')
      .where('e.workflow_id = :id AND e.status IN (:...s)', { id: workflowId, s: ACTIVE_STATUSES })
      .getCount();
  }

  /** Deletes the workflow's step runs, executions and entries (the workflow being deleted). */
  async deleteOf(m: EntityManager, workflowId: string): Promise<void> {
    await m.query(
      `DELETE FROM ${tableName(m, WorkflowStepRun)} r USING ${tableName(m, WorkflowExecution)} e WHERE r.execution_id = e.id AND e.workflow_id = $1`,
      [workflowId],
    );
    for (const entity of [WorkflowExecution, WorkflowEntry]) await m.delete(entity, { workflowId });
  }
}

/** An execution from its row, as `SELECT *` answers it. */
const executionOf = (r: Record<string, unknown>): WorkflowExecution =>
  Object.assign(new WorkflowExecution(), {
    id: r.id,
    projectId: r.project_id,
    workflowId: r.workflow_id,
    graphVersion: r.graph_version,
    contactId: r.contact_id,
    email: r.email,
    status: r.status,
    trigger: r.trigger,
    triggerEventId: r.trigger_event_id,
    event: r.event,
    context: r.context,
    currentStepId: r.current_step_id,
    reason: r.reason,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  });
