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
import { ExecutionStarter, type StartRequest } from './execution-starter.js';
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

/** An event of a contact that may resume its waiting executions and start workflows, under its timeline name. */
interface ContactEventItem {
  e: EventEnvelope;
  contactId: string;
  email: string;
  name: string;
  data: Record<string, unknown>;
}

const segmentEvent = (e: EventEnvelope<SegmentMembershipChangedV1>): ContactEventItem => ({
  e,
  contactId: e.payload.contactId,
  email: e.payload.email,
  name: e.type,
  data: { segmentId: e.payload.segmentId, segmentName: e.payload.segmentName, reason: e.payload.reason },
});

/** (project, contact, segment) columns of membership changes, for unnest. */
const membershipKeys = (events: EventEnvelope<SegmentMembershipChangedV1>[]): string[][] => [
  events.map((e) => e.projectId),
  events.map((e) => e.payload.contactId),
  events.map((e) => e.payload.segmentId),
];

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
   * one for the triggered workflows per project and name, then the starts. `gather`: a relay round
   * interleaves `contact.created` with `event.tracked`; every tracked event of the round comes in one
   * run (starting executions does not depend on the order against the other topics, which Kafka does
   * not keep either).
   */
  @OnEventBatch(WORKFLOWS, Topics.EventTracked, { gather: true })
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
    await this.contactEvents(
      m,
      events.map((e) => ({
        e,
        contactId: e.payload.contactId,
        email: e.payload.email,
        name: e.payload.name,
        data: e.payload.data ?? {},
      })),
    );
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

  /**
   * Segment entries and exits come in runs (a relay round of segments' outbox holds many), applied
   * like email events. Not `gather`: an entry and an exit of one contact must stay in their order.
   */
  @OnEventBatch(WORKFLOWS, Topics.SegmentEntered)
  async onEntered(
    @Payload() events: EventEnvelope<SegmentMembershipChangedV1>[],
    @Ctx() ctx: EventBatchContext,
  ): Promise<void> {
    await ctx.manager.query(
      `INSERT INTO workflows.workflow_segment_members (project_id, contact_id, segment_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING`,
      membershipKeys(events),
    );
    await this.contactEvents(ctx.manager, events.map(segmentEvent));
  }

  @OnEventBatch(WORKFLOWS, Topics.SegmentExited)
  async onExited(
    @Payload() events: EventEnvelope<SegmentMembershipChangedV1>[],
    @Ctx() ctx: EventBatchContext,
  ): Promise<void> {
    await ctx.manager.query(
      `DELETE FROM workflows.workflow_segment_members
        WHERE (project_id, contact_id, segment_id) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))`,
      membershipKeys(events),
    );
    await this.contactEvents(ctx.manager, events.map(segmentEvent));
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
    await this.contactEvents(
      m,
      own.map((e) => {
        const { contactId, email, ...data } = e.payload;
        return { e, contactId: contactId!, email, name: e.type, data: data as Record<string, unknown> };
      }),
    );
  }

  /** One event of a contact: `contactEvents` for one. */
  private contactEvent(
    m: EntityManager,
    e: EventEnvelope,
    contactId: string,
    email: string,
    name: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    return this.contactEvents(m, [{ e, contactId, email, name, data }]);
  }

  /**
   * Events of contacts, in order: one look for executions waiting on them (each match resumed, the
   * event's data merged into its context), the workflows they trigger once per project and name,
   * then the starts, decided in the events' order.
   */
  private async contactEvents(m: EntityManager, items: ContactEventItem[]): Promise<void> {
    if (items.length === 0) return;
    const waiting = await m.query<{ k: string }[]>(
      `SELECT DISTINCT r.project_id || chr(1) || r.contact_id || chr(1) || r.wait_event AS k
       FROM workflows.workflow_step_runs r JOIN unnest($1::text[], $2::text[], $3::text[]) AS x(p, c, n)
         ON r.project_id = x.p AND r.contact_id = x.c AND r.wait_event = x.n
       WHERE r.status = 'PENDING' AND r.wait_event IS NOT NULL`,
      [items.map((i) => i.e.projectId), items.map((i) => i.contactId), items.map((i) => i.name)],
    );
    const waits = new Set(waiting.map((w) => w.k));
    let resumed = 0;
    for (const i of items)
      if (waits.has(`${i.e.projectId}\u0001${i.contactId}\u0001${i.name}`))
        resumed += await this.resume(m, i.e.projectId, i.contactId, i.name, i.data);
    const triggered = await this.triggeredBy(
      m,
      items.map((i) => [i.e.projectId, i.name] as const),
    );
    const starts = items.flatMap((i) =>
      (triggered.get(`${i.e.projectId}\u0000${i.name}`) ?? []).map((w) => ({
        w,
        req: this.request(i.e, i.contactId, i.email, i.name, i.data),
      })),
    );
    const started = (await this.starter.startMany(m, starts)).filter((r) => r.started).length;
    if (started || resumed) this.wakeSoon();
  }

  /** Resumes the contact's executions waiting for `name`, the event's data merged into their context. */
  private async resume(
    m: EntityManager,
    projectId: string,
    contactId: string,
    name: string,
    data: Record<string, unknown>,
  ): Promise<number> {
    const rows = await m.query<unknown[]>(
      `UPDATE workflows.workflow_step_runs SET due_at = now(), resumed_with = $4
       WHERE id IN (SELECT id FROM workflows.workflow_step_runs
                    WHERE project_id = $1 AND contact_id = $2 AND wait_event = $3 AND status = 'PENDING' AND resumed_with IS NULL
                    FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [projectId, contactId, name, JSON.stringify(data)],
    );
    return rows.length;
  }

  /** The enabled workflows each (project, event name) triggers, in one look-up. */
  private async triggeredBy(m: EntityManager, keys: (readonly [string, string])[]): Promise<Map<string, Workflow[]>> {
    const distinct = [...new Map(keys.map(([p, n]) => [`${p}\u0000${n}`, [p, n] as const])).values()];
    const rows = await m
      .getRepository(Workflow)
      .createQueryBuilder('w')
      .where('w.enabled')
      .andWhere(`(w.project_id, w.event_name) IN (SELECT p, n FROM unnest(:p::text[], :n::text[]) AS x(p, n))`, {
        p: distinct.map((k) => k[0]),
        n: distinct.map((k) => k[1]),
      })
      .orderBy('w.created_at')
      .addOrderBy('w.id')
      .getMany();
    const out = new Map<string, Workflow[]>();
    for (const w of rows) {
      const k = `${w.projectId}\u0000${w.eventName}`;
      out.set(k, [...(out.get(k) ?? []), w]);
    }
    return out;
  }

  private request(
    e: EventEnvelope,
    contactId: string,
    email: string,
    name: string,
    data: Record<string, unknown>,
  ): StartRequest {
    return {
      contactId,
      email,
      trigger: name,
      triggerEventId: e.eventId,
      event: data,
      context: {},
      trace: { causationId: e.eventId, ...(e.correlationId ? { correlationId: e.correlationId } : {}) },
    };
  }

  /** The runner polls; a start or a resume wakes it a few times so the new runs are claimed at once. */
  private wakeSoon(): void {
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
