import type { EventEnvelope } from '@herald/contracts';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WORKFLOWS } from '../consumer.js';
import type { Graph } from '../definitions/graph.js';
import { Workflow, WorkflowVersion } from '../definitions/workflow.entity.js';
import { toGraph } from '../definitions/workflow-view.js';
import { WorkflowStep, WorkflowTransition } from '../definitions/workflow.entity.js';
import type { StepBatch } from './step-batch.js';

/** The frozen graph of a workflow version and the workflow's name, as an execution runs it. */
export interface RunnableVersion {
  workflowId: string;
  name: string;
  graphVersion: number;
  graph: Graph;
}

/**
 * The frozen graphs executions run (cached), and the outbox their workflow.* events go to; the
 * writes themselves are collected in a StepBatch and flushed in the caller's transaction.
 */
@Injectable()
export class StepScheduler {
  /** Versions are immutable once frozen: cached by `<workflowId>:<version>`. */
  private readonly versions = new Map<string, RunnableVersion>();

  constructor(@InjectOutbox(WORKFLOWS) private readonly outbox: Outbox) {}

  /** The runnable version an execution started on (freezing the current graph the first time). */
  async version(m: EntityManager, workflowId: string, graphVersion: number): Promise<RunnableVersion | undefined> {
    const key = `${workflowId}:${graphVersion}`;
    const hit = this.versions.get(key);
    if (hit) return hit;
    const row = await m.findOneBy(WorkflowVersion, { workflowId, graphVersion });
    const w = await m.findOneBy(Workflow, { id: workflowId });
    if (!row) return undefined;
    const v: RunnableVersion = { workflowId, name: w?.name ?? workflowId, graphVersion, graph: row.graph as Graph };
    if (this.versions.size > 2000) this.versions.clear();
    this.versions.set(key, v);
    return v;
  }

  /** Freezes the workflow's current graph as its current version (idempotent) and returns it. */
  async freeze(m: EntityManager, w: Workflow): Promise<RunnableVersion> {
    const cached = this.versions.get(`${w.id}:${w.graphVersion}`);
    if (cached) return cached;
    const [steps, transitions] = await Promise.all([
      m.find(WorkflowStep, { where: { workflowId: w.id }, order: { position: 'ASC', createdAt: 'ASC', id: 'ASC' } }),
      m.find(WorkflowTransition, { where: { workflowId: w.id }, order: { createdAt: 'ASC', id: 'ASC' } }),
    ]);
    const graph = toGraph(steps, transitions);
    await m.query(
      `INSERT INTO ${tableName(m, WorkflowVersion)} (workflow_id, graph_version, project_id, graph) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [w.id, w.graphVersion, w.projectId, JSON.stringify(graph)],
    );
    return (await this.version(m, w.id, w.graphVersion))!;
  }

  /** Applies a batch's writes in the caller's transaction. */
  flush(m: EntityManager, batch: StepBatch): Promise<void> {
    return batch.flush(m, (mm, events) => this.publish(mm, events));
  }

  publish(m: EntityManager, events: EventEnvelope[]): Promise<void> {
    return this.outbox.add(m, ...events);
  }
}
