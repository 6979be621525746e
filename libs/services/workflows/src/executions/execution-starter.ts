import { newId, traceparentFor } from '@herald/core';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { entryStep, type GraphStep } from '../definitions/graph.js';
import type { Workflow } from '../definitions/workflow.entity.js';
import { executionEvents } from './execution-events.js';
import { WorkflowExecution } from './execution.entity.js';
import { ExecutionsStore } from './executions.store.js';
import { StepBatch } from './step-batch.js';
import { StepScheduler, type RunnableVersion } from './step-scheduler.js';

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
  /** The W3C trace context the execution's steps run in (ADR 0019); default: the active span's. */
  traceparent?: string;
}

export type StartResult =
  | { started: true; execution: WorkflowExecution }
  | { started: false; reason: 'duplicate' | 'active' | 'reentry' | 'empty'; execution?: WorkflowExecution };

/** One start asked for: a workflow and the request. */
export interface StartOf {
  w: Workflow;
  req: StartRequest;
}

const pairKey = (workflowId: string, contactId: string) => `${workflowId}\u0000${contactId}`;

/**
 * Starts contacts' executions of workflows in the caller's transaction, under the re-entry rules:
 * `allowReentry: false`, at most once per contact ever; `true`, again but not while one of theirs is
 * active; one event starts at most one execution per workflow. Transaction-scoped advisory locks per
 * workflow and contact (taken in key order) order concurrent starts for the same pair; the unique
 * keys back them up.
 *
 * `startMany` applies a run of starts (a consumer batch of tracked events) with a fixed number of
 * multi-row statements, whatever the run's length: the locks, the duplicate and active look-ups, the
 * entries, the executions, the first step runs and the outbox. The result is the one starting them
 * one after the other in order would give: a later start of a pair the run already started is
 * `active`.
 */
@Injectable()
export class ExecutionStarter {
  constructor(
    private readonly scheduler: StepScheduler,
    private readonly executions: ExecutionsStore,
  ) {}

  async start(m: EntityManager, w: Workflow, req: StartRequest): Promise<StartResult> {
    return (await this.startMany(m, [{ w, req }]))[0]!;
  }

  async startMany(m: EntityManager, starts: StartOf[]): Promise<StartResult[]> {
    const results: (StartResult | undefined)[] = starts.map(() => undefined);
    if (!starts.length) return [];
    const pairs = starts.map((s) => ({ workflowId: s.w.id, contactId: s.req.contactId }));
    await this.executions.lockPairs(m, pairs);
    const triggered = starts.filter((s) => s.req.triggerEventId);
    const dups = new Map<string, WorkflowExecution>();
    const rows = await this.executions.ofTriggerEvents(
      m,
      triggered.map((s) => ({ workflowId: s.w.id, triggerEventId: s.req.triggerEventId! })),
    );
    for (const r of rows) dups.set(`${r.workflowId}\u0000${r.triggerEventId}`, r);
    const active = new Set(
      (await this.executions.activePairs(m, pairs)).map((p) => pairKey(p.workflowId, p.contactId)),
    );

    // in order, as one start after the other: the first start of a pair in the run makes it active
    const versions = new Map<string, { v: RunnableVersion; first: GraphStep | undefined }>();
    const candidates: number[] = [];
    for (const [i, { w, req }] of starts.entries()) {
      const dup = req.triggerEventId ? dups.get(`${w.id}\u0000${req.triggerEventId}`) : undefined;
      if (dup) {
        results[i] = { started: false, reason: 'duplicate', execution: dup };
        continue;
      }
      const pair = pairKey(w.id, req.contactId);
      if (active.has(pair)) {
        results[i] = { started: false, reason: 'active' };
        continue;
      }
      let v = versions.get(`${w.id}:${w.graphVersion}`);
      if (!v) {
        const frozen = await this.scheduler.freeze(m, w);
        v = { v: frozen, first: entryStep(frozen.graph) };
        versions.set(`${w.id}:${w.graphVersion}`, v);
      }
      if (!v.first) {
        results[i] = { started: false, reason: 'empty' };
        continue;
      }
      active.add(pair);
      candidates.push(i);
    }
    if (!candidates.length) return results as StartResult[];

    const entered = new Set(
      (
        await this.executions.enter(
          m,
          candidates.map((i) => ({
            workflowId: starts[i]!.w.id,
            contactId: starts[i]!.req.contactId,
            projectId: starts[i]!.w.projectId,
          })),
        )
      ).map((p) => pairKey(p.workflowId, p.contactId)),
    );

    const batch = new StepBatch();
    const fresh: WorkflowExecution[] = [];
    const started: EventEnvelopeOf[] = [];
    for (const i of candidates) {
      const { w, req } = starts[i]!;
      if (!w.allowReentry && !entered.has(pairKey(w.id, req.contactId))) {
        results[i] = { started: false, reason: 'reentry' };
        continue;
      }
      const { v, first } = versions.get(`${w.id}:${w.graphVersion}`)!;
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
      // workflow.started says RUNNING, built before the entry step may make the execution WAITING:
      // analytics orders one instant's events by their status (running, waiting, finished), and a
      // started event saying WAITING, applied after workflow.waiting (another topic), would wipe
      // the step it waits on
      started.push(executionEvents.started(e, w.name, req.trace));
      batch.enter(e, w.name, first!, true, traceparentFor(req.traceparent) ?? null);
      fresh.push(e);
      results[i] = { started: true, execution: e };
    }
    if (!fresh.length) return results as StartResult[];
    const startedAt = await this.executions.insert(m, fresh);
    for (const e of fresh) e.startedAt = startedAt.get(e.id)!;
    batch.events.unshift(...started);
    await this.scheduler.flush(m, batch);
    return results as StartResult[];
  }
}

type EventEnvelopeOf = ReturnType<typeof executionEvents.started>;
