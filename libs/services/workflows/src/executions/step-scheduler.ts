import type { EventEnvelope } from '@herald/contracts';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WORKFLOWS } from '../consumer.js';
import type { Graph } from '../definitions/graph.js';
import type { Workflow } from '../definitions/workflow.entity.js';
import { WorkflowStore } from '../definitions/workflow-store.js';
import { ExecutionsStore } from './executions.store.js';
import type { StepBatch } from './step-batch.js';
import { StepRunsStore } from './step-runs.store.js';

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

  constructor(
    @InjectOutbox(WORKFLOWS) private readonly outbox: Outbox,
    private readonly workflows: WorkflowStore,
    private readonly executions: ExecutionsStore,
    private readonly runs: StepRunsStore,
  ) {}

  /** The runnable version an execution started on (freezing the current graph the first time). */
  async version(m: EntityManager, workflowId: string, graphVersion: number): Promise<RunnableVersion | undefined> {
    const key = `${workflowId}:${graphVersion}`;
    const hit = this.versions.get(key);
    if (hit) return hit;
    const frozen = await this.workflows.frozen(m, workflowId, graphVersion);
    if (!frozen) return undefined;
    const v: RunnableVersion = { workflowId, name: frozen.name, graphVersion, graph: frozen.graph };
    if (this.versions.size > 2000) this.versions.clear();
    this.versions.set(key, v);
    return v;
  }

  /** Freezes the workflow's current graph as its current version (idempotent) and returns it. */
  async freeze(m: EntityManager, w: Workflow): Promise<RunnableVersion> {
    const cached = this.versions.get(`${w.id}:${w.graphVersion}`);
    if (cached) return cached;
    await this.workflows.freeze(m, w, await this.workflows.graph(m, w.id));
    return (await this.version(m, w.id, w.graphVersion))!;
  }

  /** Applies a batch's writes in the caller's transaction. */
  flush(m: EntityManager, batch: StepBatch): Promise<void> {
    return batch.flush(m, { runs: this.runs, executions: this.executions }, (mm, events) => this.publish(mm, events));
  }

  publish(m: EntityManager, events: EventEnvelope[]): Promise<void> {
    return this.outbox.add(m, ...events);
  }
}
