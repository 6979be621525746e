import {
  liveEmailEvents,
  Topics,
  type ContactCreatedV1,
  type ContactDeletedV1,
  type ContactSubscriptionChangedV1,
  type ContactUpdatedV1,
  type EmailLifecycleV1,
  type EmailReceivedV1,
  type EventEnvelope,
  type EventTrackedV1,
  type SegmentMembershipChangedV1,
} from '@herald/contracts';
import { EventBatchContext, EventContext, OnEvent, OnEventBatch } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { WORKFLOWS } from '../consumer.js';
import {
  ApplyContactEventsUseCase,
  type ContactEvent,
  type EmailContactEvent,
  type SegmentContactEvent,
  type TrackedContactEvent,
} from './apply-contact-events.use-case.js';

/** The envelope's part of every contact event: where it belongs and what caused it. */
const origin = (e: EventEnvelope) => ({
  projectId: e.projectId,
  eventId: e.eventId,
  ...(e.correlationId ? { correlationId: e.correlationId } : {}),
  ...(e.traceparent ? { traceparent: e.traceparent } : {}),
});

const tracked = (e: EventEnvelope<EventTrackedV1>): TrackedContactEvent => ({
  ...origin(e),
  contactId: e.payload.contactId,
  email: e.payload.email,
  name: e.payload.name,
  data: e.payload.data ?? {},
  occurredAt: e.occurredAt,
});

const subscription = (e: EventEnvelope<ContactSubscriptionChangedV1>): ContactEvent => ({
  ...origin(e),
  contactId: e.payload.contactId,
  email: e.payload.email,
  name: e.type,
  data: e.payload.reason ? { reason: e.payload.reason } : {},
});

const segment = (e: EventEnvelope<SegmentMembershipChangedV1>): SegmentContactEvent => ({
  ...origin(e),
  contactId: e.payload.contactId,
  email: e.payload.email,
  name: e.type,
  data: { segmentId: e.payload.segmentId, segmentName: e.payload.segmentName, reason: e.payload.reason },
  segmentId: e.payload.segmentId,
});

const email = (e: EventEnvelope<EmailLifecycleV1>): EmailContactEvent => {
  const { contactId, email: address, ...data } = e.payload;
  return {
    ...origin(e),
    ...(contactId ? { contactId } : {}),
    email: address,
    name: e.type,
    data: data as Record<string, unknown>,
    occurredAt: e.occurredAt,
  };
};

/** A message the contact wrote in (`email.received`): its fields are the execution's `event`; none of a sender who is no contact. */
const received = (e: EventEnvelope<EmailReceivedV1>): EmailContactEvent => {
  const { contactId, email: address, ...data } = e.payload;
  return {
    ...origin(e),
    ...(contactId ? { contactId } : {}),
    email: address ?? '',
    name: e.type,
    data: data as Record<string, unknown>,
    occurredAt: e.occurredAt,
  };
};

/**
 * What starts and resumes executions: a tracked event, or a system event of the contact under its
 * timeline name (contact.subscribed/unsubscribed, segment.entered/exited, email.*, email.received included). Each handler
 * decodes its events and applies them in `ctx.manager` (the idempotent inbox's transaction), so an
 * event delivered twice starts nothing twice, and the unique key on the triggering event id backs
 * that up (ApplyContactEventsUseCase).
 */
@Controller()
export class TriggerHandlers {
  constructor(private readonly contactEvents: ApplyContactEventsUseCase) {}

  /**
   * Tracked events come in runs (a Kafka batch, an outbox relay round), applied in one transaction.
   * `gather`: a relay round interleaves `contact.created` with `event.tracked`; every tracked event of
   * the round comes in one run (starting executions does not depend on the order against the other
   * topics, which Kafka does not keep either).
   */
  @OnEventBatch(WORKFLOWS, Topics.EventTracked, { gather: true })
  onTracked(@Payload() events: EventEnvelope<EventTrackedV1>[], @Ctx() ctx: EventBatchContext): Promise<void> {
    return this.contactEvents.tracked(ctx.manager, events.map(tracked));
  }

  @OnEvent(WORKFLOWS, Topics.ContactSubscribed)
  onSubscribed(@Payload() e: EventEnvelope<ContactSubscriptionChangedV1>, @Ctx() ctx: EventContext) {
    return this.contactEvents.apply(ctx.manager, [subscription(e)]);
  }

  @OnEvent(WORKFLOWS, Topics.ContactUnsubscribed)
  onUnsubscribed(@Payload() e: EventEnvelope<ContactSubscriptionChangedV1>, @Ctx() ctx: EventContext) {
    return this.contactEvents.apply(ctx.manager, [subscription(e)]);
  }

  /**
   * Segment entries and exits come in runs (a relay round of segments' outbox holds many), applied
   * like email events. Not `gather`: an entry and an exit of one contact must stay in their order.
   */
  @OnEventBatch(WORKFLOWS, Topics.SegmentEntered)
  onEntered(
    @Payload() events: EventEnvelope<SegmentMembershipChangedV1>[],
    @Ctx() ctx: EventBatchContext,
  ): Promise<void> {
    return this.contactEvents.segmentsEntered(ctx.manager, events.map(segment));
  }

  @OnEventBatch(WORKFLOWS, Topics.SegmentExited)
  onExited(
    @Payload() events: EventEnvelope<SegmentMembershipChangedV1>[],
    @Ctx() ctx: EventBatchContext,
  ): Promise<void> {
    return this.contactEvents.segmentsExited(ctx.manager, events.map(segment));
  }

  /**
   * Email events come in runs (a campaign's batch of `email.sent`, say), applied like tracked events.
   * Those of test mode (docs/test-mode.md) start and resume nothing: a test send must not set off live mail.
   */
  @OnEventBatch(WORKFLOWS, Topics.EmailSent)
  onSent(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.contactEvents.emails(ctx.manager, liveEmailEvents(events).map(email));
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailDelivered)
  onDelivered(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.contactEvents.emails(ctx.manager, liveEmailEvents(events).map(email));
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailOpened)
  onOpened(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.contactEvents.emails(ctx.manager, liveEmailEvents(events).map(email));
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailClicked)
  onClicked(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.contactEvents.emails(ctx.manager, liveEmailEvents(events).map(email));
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailBounced)
  onBounced(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.contactEvents.emails(ctx.manager, liveEmailEvents(events).map(email));
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailComplained)
  onComplained(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.contactEvents.emails(ctx.manager, liveEmailEvents(events).map(email));
  }
  @OnEventBatch(WORKFLOWS, Topics.EmailFailed)
  onFailed(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.contactEvents.emails(ctx.manager, liveEmailEvents(events).map(email));
  }
  /** Inbound mail (docs/inbound.md): a workflow triggered on `email.received` starts for the sender's contact. */
  @OnEventBatch(WORKFLOWS, Topics.EmailReceived)
  onReceived(@Payload() events: EventEnvelope<EmailReceivedV1>[], @Ctx() ctx: EventBatchContext) {
    return this.contactEvents.emails(ctx.manager, events.map(received));
  }

  /** Contact data keys and their types, for GET /workflows/fields. */
  @OnEvent(WORKFLOWS, Topics.ContactCreated)
  onCreated(@Payload() e: EventEnvelope<ContactCreatedV1>, @Ctx() ctx: EventContext) {
    return this.contactEvents.contactData(ctx.manager, e.projectId, e.payload.data);
  }

  @OnEvent(WORKFLOWS, Topics.ContactUpdated)
  onUpdated(@Payload() e: EventEnvelope<ContactUpdatedV1>, @Ctx() ctx: EventContext) {
    return this.contactEvents.contactData(
      ctx.manager,
      e.projectId,
      (e.payload as { data?: Record<string, unknown> }).data ?? {},
    );
  }

  /** Deleting a contact cancels its executions. */
  @OnEvent(WORKFLOWS, Topics.ContactDeleted)
  onDeleted(@Payload() e: EventEnvelope<ContactDeletedV1>, @Ctx() ctx: EventContext): Promise<void> {
    return this.contactEvents.contactDeleted(ctx.manager, e.projectId, e.payload.contactId);
  }
}
