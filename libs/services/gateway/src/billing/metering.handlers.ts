import {
  isTestModeEvent,
  liveEmailEvents,
  Topics,
  type ContactDeletedV1,
  type EmailLifecycleV1,
  type EventEnvelope,
  type EventTrackedV1,
} from '@herald/contracts';
import { EventBatchContext, EventContext, OnEvent, OnEventBatch } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { GATEWAY } from '../consumer.js';
import { ReputationService } from '../reputation/reputation.service.js';
import { BillingMeter, type MeteredEvent } from './billing-meter.js';

const metered = (e: EventEnvelope<EmailLifecycleV1>): MeteredEvent => ({
  projectId: e.projectId,
  payload: e.payload,
  at: new Date(e.occurredAt),
});

/** The events' times per project (the stored-contacts gauge and tracked events are counted per run). */
export function countByProject(events: EventEnvelope[]): Map<string, Date[]> {
  const out = new Map<string, Date[]>();
  for (const e of events) {
    const list = out.get(e.projectId) ?? [];
    list.push(new Date(e.occurredAt));
    out.set(e.projectId, list);
  }
  return out;
}

/**
 * Consumption and reputation from the other services' events, through the idempotent inbox: each
 * handler writes in `ctx.manager`, the transaction that records the event as applied, so a
 * redelivered event counts nothing twice. Test-mode email events (`testMode`, docs/test-mode.md)
 * count nowhere: no usage, no send, bounce or complaint of the reputation windows.
 */
@Controller()
export class MeteringHandlers {
  constructor(
    private readonly meter: BillingMeter,
    private readonly reputation: ReputationService,
  ) {}

  @OnEventBatch(GATEWAY, Topics.EmailSent)
  onSent(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext): Promise<void> {
    return this.meter.emails(ctx.manager, liveEmailEvents(events).map(metered), false);
  }

  /** Bounces are counted as sends when first seen, then each project's reputation is judged once per run. */
  @OnEventBatch(GATEWAY, Topics.EmailBounced)
  async onBounced(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext): Promise<void> {
    const live = liveEmailEvents(events);
    if (live.length === 0) return;
    await this.meter.emails(ctx.manager, live.map(metered), true);
    for (const projectId of [...new Set(live.map((e) => e.projectId))].sort())
      await this.reputation.evaluate(ctx.manager, projectId);
  }

  @OnEvent(GATEWAY, Topics.EmailComplained)
  async onComplained(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext): Promise<void> {
    if (isTestModeEvent(e)) return;
    await this.meter.complaint(ctx.manager, e.projectId, e.payload, new Date(e.occurredAt));
    await this.reputation.evaluate(ctx.manager, e.projectId);
  }

  /** A delivered batch's tracked events at once (`gather`: a sum, whatever the order of topics): one counter update per project and period. */
  @OnEventBatch(GATEWAY, Topics.EventTracked, { gather: true })
  async onTracked(@Payload() events: EventEnvelope<EventTrackedV1>[], @Ctx() ctx: EventBatchContext): Promise<void> {
    for (const [projectId, at] of countByProject(events)) await this.meter.trackedEvents(ctx.manager, projectId, at);
  }

  @OnEvent(GATEWAY, Topics.ContactDeleted)
  onContactDeleted(@Payload() e: EventEnvelope<ContactDeletedV1>, @Ctx() ctx: EventContext): Promise<void> {
    return this.meter.contacts(ctx.manager, e.projectId, -1);
  }
}
