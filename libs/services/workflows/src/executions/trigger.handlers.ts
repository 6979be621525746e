import {
  Topics,
  type ContactCreatedV1,
  type ContactDeletedV1,
  type ContactSubscriptionChangedV1,
  type ContactUpdatedV1,
  type EmailLifecycleV1,
  type EventEnvelope,
  type EventTrackedV1,
  type SegmentMembershipChangedV1,
} from '@herald/contracts';
import { EventBatchContext, EventContext, OnEvent, OnEventBatch } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { EntityManager } from 'typeorm';
import { WORKFLOWS } from '../consumer.js';
import { Workflow } from '../definitions/workflow.entity.js';
import { StepRunner } from '../runtime/step-runner.js';
import { ExecutionStarter } from './execution-starter.js';
import { WorkflowExecution } from './execution.entity.js';
import { ExecutionsService } from './executions.service.js';

const ENGAGEMENT: Record<string, string> = {
  [Topics.EmailSent]: 'sent',
  [Topics.EmailDelivered]: 'delivered',
  [Topics.EmailOpened]: 'opened',
  [Topics.EmailClicked]: 'clicked',
  [Topics.EmailBounced]: 'bounced',
  [Topics.EmailComplained]: 'complained',
};

const typeOf = (v: unknown): string | undefined =>
  v === null || v === undefined ? undefined : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;

/**
 * What starts and resumes executions: a tracked event, or a system event of the contact under its
 * timeline name (contact.subscribed/unsubscribed, segment.entered/exited, email.*). Each handler
 * writes in `ctx.manager` (the idempotent inbox's transaction), so an event delivered twice starts
 * nothing twice, and the unique key on the triggering event id backs that up.
 */
@Controller()
export class TriggerHandlers {
  constructor(
    private readonly starter: ExecutionStarter,
    private readonly runner: StepRunner,
    private readonly executions: ExecutionsService,
  ) {}

  /**
   * Tracked events come in runs (a Kafka batch, an outbox relay round), applied in one transaction:
   * the activity and the keys seen with multi-row statements, one look for waiting executions and
   * one for the triggered workflows per project and name, then the starts.
   */
  @OnEventBatch(WORKFLOWS, Topics.EventTracked)
  async onTracked(@Payload() events: EventEnvelope<EventTrackedV1>[], @Ctx() ctx: EventBatchContext): Promise<void> {
    const m = ctx.manager;
    await m.query(
      `INSERT INTO workflows.workflow_contact_activity (project_id, contact_id, source, name, occurred_at)
       SELECT p, c, 'event', n, t FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) AS x(p, c, n, t)`,
      [
        events.map((e) => e.projectId),
        events.map((e) => e.payload.contactId),
        events.map((e) => e.payload.name.slice(0, 255)),
        events.map((e) => e.occurredAt),
      ],
    );
    const keys = new Map<string, [string, string, string, string]>();
    for (const e of events)
      for (const [k, v] of Object.entries(e.payload.data ?? {}).slice(0, 100)) {
        const type = typeOf(v);
        const scope = `event:${e.payload.name}`.slice(0, 300);
        if (type) keys.set(`${e.projectId}\u0000${scope}\u0000${k}`, [e.projectId, scope, k.slice(0, 300), type]);
      }
    if (keys.size) {
      const rows = [...keys.values()];
      await m.query(
        `INSERT INTO workflows.workflow_seen_keys (project_id, scope, key, type)
         SELECT p, s, k, t FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS x(p, s, k, t) ON CONFLICT DO NOTHING`,
        [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
      );
    }
    const waiting = await m.query<{ k: string }[]>(
      `SELECT DISTINCT r.project_id || chr(1) || r.contact_id || chr(1) || r.wait_event AS k
       FROM workflows.workflow_step_runs r JOIN unnest($1::text[], $2::text[], $3::text[]) AS x(p, c, n)
         ON r.project_id = x.p AND r.contact_id = x.c AND r.wait_event = x.n
       WHERE r.status = 'PENDING' AND r.wait_event IS NOT NULL`,
      [events.map((e) => e.projectId), events.map((e) => e.payload.contactId), events.map((e) => e.payload.name)],
    );
    const waits = new Set(waiting.map((w) => w.k));
    const cache = new Map<string, Workflow[]>();
    for (const e of events)
      await this.contactEvent(m, e, e.payload.contactId, e.payload.email, e.payload.name, e.payload.data, {
        cache,
        mayResume: waits.has(`${e.projectId}\u0001${e.payload.contactId}\u0001${e.payload.name}`),
      });
  }

  @OnEvent(WORKFLOWS, Topics.ContactSubscribed)
  onSubscribed(@Payload() e: EventEnvelope<ContactSubscriptionChangedV1>, @Ctx() ctx: EventContext) {
    return this.contactEvent(
      ctx.manager,
      e,
      e.payload.contactId,
      e.payload.email,
      e.type,
      e.payload.reason ? { reason: e.payload.reason } : {},
    );
  }

  @OnEvent(WORKFLOWS, Topics.ContactUnsubscribed)
  onUnsubscribed(@Payload() e: EventEnvelope<ContactSubscriptionChangedV1>, @Ctx() ctx: EventContext) {
    return this.contactEvent(
      ctx.manager,
      e,
      e.payload.contactId,
      e.payload.email,
      e.type,
      e.payload.reason ? { reason: e.payload.reason } : {},
    );
  }

  @OnEvent(WORKFLOWS, Topics.SegmentEntered)
  async onEntered(@Payload() e: EventEnvelope<SegmentMembershipChangedV1>, @Ctx() ctx: EventContext): Promise<void> {
    const p = e.payload;
    await ctx.manager.query(
      `INSERT INTO workflows.workflow_segment_members (project_id, contact_id, segment_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [e.projectId, p.contactId, p.segmentId],
    );
    await this.contactEvent(ctx.manager, e, p.contactId, p.email, e.type, {
      segmentId: p.segmentId,
      segmentName: p.segmentName,
      reason: p.reason,
    });
  }

  @OnEvent(WORKFLOWS, Topics.SegmentExited)
  async onExited(@Payload() e: EventEnvelope<SegmentMembershipChangedV1>, @Ctx() ctx: EventContext): Promise<void> {
    const p = e.payload;
    await ctx.manager.query(
      `DELETE FROM workflows.workflow_segment_members WHERE project_id = $1 AND contact_id = $2 AND segment_id = $3`,
      [e.projectId, p.contactId, p.segmentId],
    );
    await this.contactEvent(ctx.manager, e, p.contactId, p.email, e.type, {
      segmentId: p.segmentId,
      segmentName: p.segmentName,
      reason: p.reason,
    });
  }

  @OnEventBatch(WORKFLOWS, Topics.EmailSent)
  onSent(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.emails(events, ctx);
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailDelivered)
  onDelivered(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.emails(events, ctx);
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailOpened)
  onOpened(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.emails(events, ctx);
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailClicked)
  onClicked(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.emails(events, ctx);
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailBounced)
  onBounced(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.emails(events, ctx);
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailComplained)
  onComplained(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.emails(events, ctx);
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailFailed)
  onFailed(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.emails(events, ctx);
  }

  /** Contact data keys and their types, for GET /workflows/fields. */
  @OnEvent(WORKFLOWS, Topics.ContactCreated)
  onCreated(@Payload() e: EventEnvelope<ContactCreatedV1>, @Ctx() ctx: EventContext) {
    return this.seenKeys(ctx.manager, e.projectId, 'contact', e.payload.data);
  }

  @OnEvent(WORKFLOWS, Topics.ContactUpdated)
  onUpdated(@Payload() e: EventEnvelope<ContactUpdatedV1>, @Ctx() ctx: EventContext) {
    return this.seenKeys(
      ctx.manager,
      e.projectId,
      'contact',
      (e.payload as { data?: Record<string, unknown> }).data ?? {},
    );
  }

  /** Deleting a contact cancels its executions. */
  @OnEvent(WORKFLOWS, Topics.ContactDeleted)
  async onDeleted(@Payload() e: EventEnvelope<ContactDeletedV1>, @Ctx() ctx: EventContext): Promise<void> {
    const rows = await ctx.manager
      .getRepository(WorkflowExecution)
      .createQueryBuilder('e')
      .setLock('pessimistic_write')
      .where(`e.project_id = :p AND e.contact_id = :c AND e.status IN ('RUNNING', 'WAITING')`, {
        p: e.projectId,
        c: e.payload.contactId,
      })
      .orderBy('e.id')
      .getMany();
    await this.executions.cancelLocked(ctx.manager, rows, 'the contact was deleted');
    await ctx.manager.query(
      `DELETE FROM workflows.workflow_contact_activity WHERE project_id = $1 AND contact_id = $2`,
      [e.projectId, e.payload.contactId],
    );
    await ctx.manager.query(
      `DELETE FROM workflows.workflow_segment_members WHERE project_id = $1 AND contact_id = $2`,
      [e.projectId, e.payload.contactId],
    );
  }

  /**
   * Email events come in runs (a campaign's batch of `email.sent`, say), applied like tracked events:
   * the engagement activity in one multi-row insert, one look for executions waiting on these
   * events, the triggered workflows once per project and name, then each contact's event.
   */
  private async emails(events: EventEnvelope<EmailLifecycleV1>[], ctx: EventBatchContext): Promise<void> {
    const m = ctx.manager;
    const own = events.filter((e) => e.payload.contactId);
    if (own.length === 0) return;
    const engaged = own.filter((e) => ENGAGEMENT[e.type]);
    if (engaged.length > 0)
      await m.query(
        `INSERT INTO workflows.workflow_contact_activity (project_id, contact_id, source, name, occurred_at)
         SELECT p, c, 'email', n, t FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) AS x(p, c, n, t)`,
        [
          engaged.map((e) => e.projectId),
          engaged.map((e) => e.payload.contactId!),
          engaged.map((e) => ENGAGEMENT[e.type]!),
          engaged.map((e) => e.occurredAt),
        ],
      );
    const waiting = await m.query<{ k: string }[]>(
      `SELECT DISTINCT r.project_id || chr(1) || r.contact_id || chr(1) || r.wait_event AS k
       FROM workflows.workflow_step_runs r JOIN unnest($1::text[], $2::text[], $3::text[]) AS x(p, c, n)
         ON r.project_id = x.p AND r.contact_id = x.c AND r.wait_event = x.n
       WHERE r.status = 'PENDING' AND r.wait_event IS NOT NULL`,
      [own.map((e) => e.projectId), own.map((e) => e.payload.contactId!), own.map((e) => e.type)],
    );
    const waits = new Set(waiting.map((w) => w.k));
    const cache = new Map<string, Workflow[]>();
    for (const e of own) {
      const { contactId, email, ...data } = e.payload;
      await this.contactEvent(m, e, contactId!, email, e.type, data as Record<string, unknown>, {
        cache,
        mayResume: waits.has(`${e.projectId}\u0001${contactId}\u0001${e.type}`),
      });
    }
  }

  /**
   * One event of a contact: resumes the contact's executions waiting for that name (the event's data
   * merged into their context), and starts every enabled workflow it triggers.
   */
  private async contactEvent(
    m: EntityManager,
    e: EventEnvelope,
    contactId: string,
    email: string,
    name: string,
    data: Record<string, unknown>,
    batch: { cache?: Map<string, Workflow[]>; mayResume?: boolean } = {},
  ): Promise<void> {
    const resumed =
      batch.mayResume === false
        ? []
        : await m.query<unknown[]>(
            `UPDATE workflows.workflow_step_runs SET due_at = now(), resumed_with = $4
       WHERE id IN (SELECT id FROM workflows.workflow_step_runs
                    WHERE project_id = $1 AND contact_id = $2 AND wait_event = $3 AND status = 'PENDING' AND resumed_with IS NULL
                    FOR UPDATE SKIP LOCKED)
       RETURNING id`,
            [e.projectId, contactId, name, JSON.stringify(data)],
          );
    const key = `${e.projectId}\u0000${name}`;
    let workflows = batch.cache?.get(key);
    if (!workflows) {
      workflows = await m.find(Workflow, { where: { projectId: e.projectId, eventName: name, enabled: true } });
      batch.cache?.set(key, workflows);
    }
    let started = 0;
    for (const w of workflows) {
      const r = await this.starter.start(m, w, {
        contactId,
        email,
        trigger: name,
        triggerEventId: e.eventId,
        event: data,
        context: {},
        trace: { causationId: e.eventId, ...(e.correlationId ? { correlationId: e.correlationId } : {}) },
      });
      if (r.started) started++;
    }
    if (started || (resumed as unknown[]).length)
      for (const ms of [5, 30, 100]) setTimeout(() => this.runner.wake(), ms).unref();
  }

  private async seenKeys(
    m: EntityManager,
    projectId: string,
    scope: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    const rows = Object.entries(data ?? {})
      .slice(0, 100)
      .map(([k, v]) => [k.slice(0, 300), typeOf(v)] as const)
      .filter((r): r is readonly [string, string] => r[1] !== undefined);
    if (!rows.length) return;
    await m.query(
      `INSERT INTO workflows.workflow_seen_keys (project_id, scope, key, type)
       SELECT $1, $2, k, t FROM unnest($3::text[], $4::text[]) AS x(k, t) ON CONFLICT DO NOTHING`,
      [projectId, scope.slice(0, 300), rows.map((r) => r[0]), rows.map((r) => r[1])],
    );
  }
}
