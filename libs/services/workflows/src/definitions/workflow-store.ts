import type { ResourceReference } from '@herald/contracts';
import { InjectOutbox, publishReferences, type Outbox } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WORKFLOWS } from '../consumer.js';
import { conditionStepReferences, parseConditionStep } from './condition-step.js';
import type { Graph } from './graph.js';
import { Workflow, WorkflowStep, WorkflowTransition, WorkflowVersion } from './workflow.entity.js';
import { WorkflowErrors } from './workflow.errors.js';
import { toGraph } from './workflow-view.js';

/** What a graph references, for usage (docs/adr/0011): trigger and awaited events, templates, condition and updated fields. */
export function referencesOfWorkflow(w: Workflow, graph: Graph): ResourceReference[] {
  const refs: ResourceReference[] = [];
  if (w.eventName) refs.push({ kind: 'event', key: w.eventName });
  for (const s of graph.steps) {
    const c = s.config;
    if (s.type === 'SEND_EMAIL' && typeof c.templateId === 'string')
      // an enabled workflow's templates cannot be deleted (sending's 409 TEMPLATE_IN_USE)
      refs.push({ kind: 'template', key: c.templateId, at: s.id, ...(w.enabled ? { active: true as const } : {}) });
    if (s.type === 'WAIT_FOR_EVENT' && typeof c.eventName === 'string')
      refs.push({ kind: 'event', key: c.eventName, at: s.id });
    if (s.type === 'UPDATE_CONTACT') {
      for (const k of Object.keys((c.data as Record<string, unknown> | undefined) ?? {}))
        refs.push({ kind: 'field', key: `data.${k}`, at: s.id });
      if (c.subscribed !== undefined) refs.push({ kind: 'field', key: 'subscribed', at: s.id });
    }
    if (s.type === 'CONDITION') {
      const r = conditionStepReferences(parseConditionStep(c));
      refs.push(...r.fields.map((key) => ({ kind: 'field' as const, key, at: s.id })));
      refs.push(...r.events.map((key) => ({ kind: 'event' as const, key, at: s.id })));
      refs.push(...r.segments.map((key) => ({ kind: 'segment' as const, key, at: s.id })));
    }
  }
  return refs;
}

/**
 * Loading and locking a workflow and its graph, what every change of it does (version, references,
 * live checks), its frozen versions (the graphs executions run) and its deletion.
 */
@Injectable()
export class WorkflowStore {
  constructor(@InjectOutbox(WORKFLOWS) private readonly outbox: Outbox) {}

  async find(m: EntityManager, projectId: string, id: string, lock = false): Promise<Workflow> {
    const w = await m.findOne(Workflow, {
      where: { projectId, id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!w) throw WorkflowErrors.notFound(id);
    return w;
  }

  /**
   * The enabled workflows triggered by any of `triggers` (a project and an event name each), in one
   * look-up, oldest first.
   */
  triggeredBy(m: EntityManager, triggers: { projectId: string; name: string }[]): Promise<Workflow[]> {
    return m
      .getRepository(Workflow)
      .createQueryBuilder('w')
      .where('w.enabled')
      .andWhere(`(w.project_id, w.event_name) IN (SELECT p, n FROM unnest(:p::text[], :n::text[]) AS x(p, n))`, {
        p: triggers.map((t) => t.projectId),
        n: triggers.map((t) => t.name),
      })
      .orderBy('w.created_at')
      .addOrderBy('w.id')
      .getMany();
  }

  async graphRows(
    m: EntityManager,
    workflowId: string,
  ): Promise<{ steps: WorkflowStep[]; transitions: WorkflowTransition[] }> {
    const [steps, transitions] = await Promise.all([
      m.find(WorkflowStep, { where: { workflowId }, order: { position: 'ASC', createdAt: 'ASC', id: 'ASC' } }),
      m.find(WorkflowTransition, { where: { workflowId }, order: { createdAt: 'ASC', id: 'ASC' } }),
    ]);
    return { steps, transitions };
  }

  async graph(m: EntityManager, workflowId: string): Promise<Graph> {
    const rows = await this.graphRows(m, workflowId);
    return toGraph(rows.steps, rows.transitions);
  }

  /** The order a step added without a position takes: after the workflow's last (0 for the first). */
  async nextPosition(m: EntityManager, workflowId: string): Promise<number> {
    return Number(
      (
        await m.query(
          `SELECT coalesce(max(position) + 1, 0) AS p FROM ${tableName(m, WorkflowStep)} WHERE workflow_id = $1`,
          [workflowId],
        )
      )[0].p,
    );
  }

  /** Freezes `graph` as the workflow's current version; a version frozen before stays as it was. */
  async freeze(m: EntityManager, w: Workflow, graph: Graph): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, WorkflowVersion)} (workflow_id, graph_version, project_id, graph) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [w.id, w.graphVersion, w.projectId, JSON.stringify(graph)],
    );
  }

  /** A frozen version's graph, with the workflow's name (its id once the workflow is gone); none if not frozen. */
  async frozen(
    m: EntityManager,
    workflowId: string,
    graphVersion: number,
  ): Promise<{ name: string; graph: Graph } | undefined> {
    const row = await m.findOneBy(WorkflowVersion, { workflowId, graphVersion });
    const w = await m.findOneBy(Workflow, { id: workflowId });
    if (!row) return undefined;
    return { name: w?.name ?? workflowId, graph: row.graph as Graph };
  }

  /** Deletes the workflow, its versions and its graph (its executions are gone first: `WorkflowExecutionsPort.deleteOf`). */
  async delete(m: EntityManager, id: string): Promise<void> {
    for (const entity of [WorkflowVersion, WorkflowTransition, WorkflowStep])
      await m.delete(entity, { workflowId: id });
    await m.delete(Workflow, { id });
  }

  /**
   * After a change of the workflow or its graph (in its transaction, the workflow row locked): the
   * graph version grows when the graph changed (running executions keep theirs); the references are
   * republished. An enabled workflow's graph may be edited into any shape: its problems are reported
   * (`graphProblems`), never refused, as enabling is.
   */
  async changed(m: EntityManager, w: Workflow, graphChanged: boolean, requestId?: string): Promise<Workflow> {
    const graph = await this.graph(m, w.id);
    if (graphChanged) w.graphVersion += 1;
    const saved = await m.save(w);
    await publishReferences(
      this.outbox,
      m,
      WORKFLOWS,
      { projectId: w.projectId, kind: 'workflow', id: w.id, name: w.name, revision: saved.version },
      referencesOfWorkflow(saved, graph),
      requestId ? { correlationId: requestId } : {},
    );
    return saved;
  }

  /** In the deleting transaction: the workflow references nothing any more, and the event says it is deleted. */
  async unpublish(m: EntityManager, w: Workflow, requestId?: string): Promise<void> {
    await publishReferences(
      this.outbox,
      m,
      WORKFLOWS,
      { projectId: w.projectId, kind: 'workflow', id: w.id, name: w.name, revision: w.version + 1, deleted: true },
      [],
      requestId ? { correlationId: requestId } : {},
    );
  }
}
