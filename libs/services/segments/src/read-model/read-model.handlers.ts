import {
  Topics,
  type ContactCreatedV1,
  type ContactDeletedV1,
  type ContactSubscriptionChangedV1,
  type ContactUpdatedV1,
  type EmailLifecycleV1,
  type EventEnvelope,
  type EventTrackedV1,
} from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { SEGMENTS } from '../consumer.js';
import { MembershipEngine, type Trace } from '../membership/membership-engine.js';
import { ReadModelWriter } from './read-model.writer.js';

const trace = (e: EventEnvelope): Trace => ({
  causationId: e.eventId,
  ...(e.correlationId ? { correlationId: e.correlationId } : {}),
});

/** `email.<topic suffix>` → the engagement kind filters name (`email.failed` is not engagement). */
const ENGAGEMENT: Record<string, string> = {
  [Topics.EmailSent]: 'sent',
  [Topics.EmailDelivered]: 'delivered',
  [Topics.EmailOpened]: 'opened',
  [Topics.EmailClicked]: 'clicked',
  [Topics.EmailBounced]: 'bounced',
  [Topics.EmailComplained]: 'complained',
};

/**
 * Feeds the read model from the contacts and sending events, through the idempotent inbox: each
 * handler writes in `ctx.manager` (the transaction that records the event as applied), then
 * re-evaluates the contact against the project's tracked segments in the same transaction, so a
 * membership change commits (and its `segment.entered`/`segment.exited` is published) with the
 * contact change that caused it.
 */
@Controller()
export class ReadModelHandlers {
  constructor(
    private readonly writer: ReadModelWriter,
    private readonly membership: MembershipEngine,
  ) {}

  @OnEvent(SEGMENTS, Topics.ContactCreated)
  async onCreated(@Payload() e: EventEnvelope<ContactCreatedV1>, @Ctx() ctx: EventContext): Promise<void> {
    if (await this.writer.upsertContact(ctx.manager, e.projectId, e.payload, new Date(e.occurredAt), true))
      await this.membership.onContactChanged(ctx.manager, e.projectId, e.payload.contactId, trace(e));
  }

  @OnEvent(SEGMENTS, Topics.ContactUpdated)
  async onUpdated(@Payload() e: EventEnvelope<ContactUpdatedV1>, @Ctx() ctx: EventContext): Promise<void> {
    if (await this.writer.upsertContact(ctx.manager, e.projectId, e.payload, new Date(e.occurredAt), false))
      await this.membership.onContactChanged(ctx.manager, e.projectId, e.payload.contactId, trace(e));
  }

  @OnEvent(SEGMENTS, Topics.ContactSubscribed)
  onSubscribed(@Payload() e: EventEnvelope<ContactSubscriptionChangedV1>, @Ctx() ctx: EventContext) {
    return this.subscription(e, ctx, true);
  }

  @OnEvent(SEGMENTS, Topics.ContactUnsubscribed)
  onUnsubscribed(@Payload() e: EventEnvelope<ContactSubscriptionChangedV1>, @Ctx() ctx: EventContext) {
    return this.subscription(e, ctx, false);
  }

  @OnEvent(SEGMENTS, Topics.ContactDeleted)
  async onDeleted(@Payload() e: EventEnvelope<ContactDeletedV1>, @Ctx() ctx: EventContext): Promise<void> {
    await this.writer.deleteContact(ctx.manager, e.projectId, e.payload.contactId, new Date(e.occurredAt));
    await this.membership.onContactDeleted(ctx.manager, e.projectId, e.payload, trace(e));
  }

  @OnEvent(SEGMENTS, Topics.EventTracked)
  async onTracked(@Payload() e: EventEnvelope<EventTrackedV1>, @Ctx() ctx: EventContext): Promise<void> {
    await this.writer.addEvent(
      ctx.manager,
      e.projectId,
      e.payload.contactId,
      e.payload.name,
      new Date(e.occurredAt),
      e.payload.eventRecordId,
    );
    await this.membership.onContactChanged(ctx.manager, e.projectId, e.payload.contactId, trace(e), {
      kind: 'event',
      name: e.payload.name,
    });
  }

  @OnEvent(SEGMENTS, Topics.EmailSent)
  onSent(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext) {
    return this.engagement(e, ctx);
  }

  @OnEvent(SEGMENTS, Topics.EmailDelivered)
  onDelivered(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext) {
    return this.engagement(e, ctx);
  }

  @OnEvent(SEGMENTS, Topics.EmailOpened)
  onOpened(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext) {
    return this.engagement(e, ctx);
  }

  @OnEvent(SEGMENTS, Topics.EmailClicked)
  onClicked(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext) {
    return this.engagement(e, ctx);
  }

  @OnEvent(SEGMENTS, Topics.EmailBounced)
  onBounced(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext) {
    return this.engagement(e, ctx);
  }

  @OnEvent(SEGMENTS, Topics.EmailComplained)
  onComplained(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext) {
    return this.engagement(e, ctx);
  }

  private async subscription(
    e: EventEnvelope<ContactSubscriptionChangedV1>,
    ctx: EventContext,
    subscribed: boolean,
  ): Promise<void> {
    const at = new Date(e.occurredAt);
    if (await this.writer.setSubscribed(ctx.manager, e.projectId, e.payload.contactId, subscribed, at))
      await this.membership.onContactChanged(ctx.manager, e.projectId, e.payload.contactId, trace(e));
  }

  private async engagement(e: EventEnvelope<EmailLifecycleV1>, ctx: EventContext): Promise<void> {
    const kind = ENGAGEMENT[e.type];
    if (!kind) return;
    const contactId = await this.writer.contactIdFor(ctx.manager, e.projectId, e.payload.contactId, e.payload.email);
    if (!contactId) return;
    await this.writer.addEngagement(ctx.manager, e.projectId, contactId, kind, new Date(e.occurredAt));
    await this.membership.onContactChanged(ctx.manager, e.projectId, contactId, trace(e));
  }
}
