import { newId } from '@herald/core';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { entryStep, type GraphStep } from '../definitions/graph.js';
import type { Workflow } from '../definitions/workflow.entity.js';
import { executionEvents } from './execution-events.js';
import { WorkflowEntry, WorkflowExecution } from './execution.entity.js';
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
  constructor(private readonly scheduler: StepScheduler) {}

  async start(m: EntityManager, w: Workflow, req: StartRequest): Promise<StartResult> {
    return (await this.startMany(m, [{ w, req }]))[0]!;
  }

  async startMany(m: EntityManager, starts: StartOf[]): Promise<StartResult[]> {
    const results: (StartResult | undefined)[] = starts.map(() => undefined);
    if (!starts.length) return [];
    const locks = [...new Set(starts.map((s) => `workflows:${s.w.id}:${s.req.contactId}`))].sort();
    await m.query(`SELECT pg_advisory_xact_lock(hashtext(k)) FROM unnest($1::text[]) AS k ORDER BY k`, [locks]);

    const triggered = starts.filter((s) => s.req.triggerEventId);
    const dups = new Map<string, WorkflowExecution>();
    if (triggered.length) {
      const rows = await m
        .getRepository(WorkflowExecution)
        .createQueryBuilder('e')
        .where(`(e.workflow_id, e.trigger_event_id) IN (SELECT w, t FROM unnest(:w::text[], :t::text[]) AS x(w, t))`, {
          w: triggered.map((s) => s.w.id),
          t: triggered.map((s) => s.req.triggerEventId),
        })
        .getMany();
      for (const r of rows) dups.set(`${r.workflowId}\u0000${r.triggerEventId}`, r);
    }
    const active = new Set(
      (
        await m.query<{ w: string; c: string }[]>(
          `SELECT DISTINCT e.workflow_id AS w, e.contact_id AS c FROM ${tableName(m, WorkflowExecution)} e
           JOIN unnest($1::text[], $2::text[]) AS x(w, c) ON e.workflow_id = x.w AND e.contact_id = x.c
           WHERE e.status IN ('RUNNING', 'WAITING')`,
          [starts.map((s) => s.w.id), starts.map((s) => s.req.contactId)],
        )
      ).map((r) => pairKey(r.w, r.c)),
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
        await m.query<{ w: string; c: string }[]>(
          `INSERT INTO ${tableName(m, WorkflowEntry)} (workflow_id, contact_id, project_id)
           SELECT w, c, p FROM unnest($1::text[], $2::text[], $3::text[]) AS x(w, c, p)
           ON CONFLICT DO NOTHING RETURNING workflow_id AS w, contact_id AS c`,
          [
            candidates.map((i) => starts[i]!.w.id),
            candidates.map((i) => starts[i]!.req.contactId),
            candidates.map((i) => starts[i]!.w.projectId),
          ],
        )
      ).map((r) => pairKey(r.w, r.c)),
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
      batch.enter(e, w.name, first!, true);
      started.push(executionEvents.started(e, w.name, req.trace));
      fresh.push(e);
      results[i] = { started: true, execution: e };
    }
    if (!fresh.length) return results as StartResult[];
    const rows = await m.query<{ id: string; started_at: Date }[]>(
      `INSERT INTO ${tableName(m, WorkflowExecution)}
         (id, project_id, workflow_id, graph_version, contact_id, email, status, trigger, trigger_event_id, event, context)
       SELECT id, p, w, v, c, em, s, t, te, ev::jsonb, cx::jsonb
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
         AS x(id, p, w, v, c, em, s, t, te, ev, cx)
       RETURNING id, started_at`,
      [
        fresh.map((e) => e.id),
        fresh.map((e) => e.projectId),
        fresh.map((e) => e.workflowId),
        fresh.map((e) => e.graphVersion),
        fresh.map((e) => e.contactId),
        fresh.map((e) => e.email),
        fresh.map((e) => e.status),
        fresh.map((e) => e.trigger),
        fresh.map((e) => e.triggerEventId),
        fresh.map((e) => JSON.stringify(e.event ?? {})),
        fresh.map((e) => JSON.stringify(e.context ?? {})),
      ],
    );
    const startedAt = new Map(rows.map((r) => [r.id, r.started_at]));
    for (const e of fresh) e.startedAt = startedAt.get(e.id)!;
    batch.events.unshift(...started);
    await this.scheduler.flush(m, batch);
    return results as StartResult[];
  }
}

type EventEnvelopeOf = ReturnType<typeof executionEvents.started>;
