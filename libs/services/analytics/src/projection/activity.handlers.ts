import { Topics, type EventEnvelope } from '@herald/contracts';
import { EventBatchContext, OnEventBatch } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { ANALYTICS } from '../consumer.js';
import { ActivityProjector } from './activity-projector.js';

/**
 * Topics whose effects on the projection do not depend on their order against the consumer's other
 * topics: feed items keyed by their event, counters (sums), and campaign and workflow states that
 * are last-writer-wins by the event's own time. Each comes in one run per delivered batch: an outbox
 * relay round interleaves `contact.created` with `event.tracked`, and a run of one event each meant a
 * statement per counter per event, each holding its counter row's lock to the commit. The email
 * topics keep their order: the prefetch rule reads an email's delivery before its opens.
 */
const GATHER = { gather: true } as const;

/**
 * The projection's consumer: every topic it reads goes to the one projector, a run of events at a
 * time, in the transaction that records them in the inbox (so a redelivered event is skipped).
 */
@Controller()
export class ActivityHandlers {
  constructor(private readonly projector: ActivityProjector) {}

  private apply(events: EventEnvelope[], ctx: EventBatchContext): Promise<void> {
    return this.projector.apply(ctx.manager, events);
  }

  @OnEventBatch(ANALYTICS, Topics.EmailSent)
  onEmailSent(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.EmailDelivered)
  onEmailDelivered(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.EmailOpened)
  onEmailOpened(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.EmailClicked)
  onEmailClicked(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.EmailBounced)
  onEmailBounced(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.EmailComplained)
  onEmailComplained(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.EmailFailed)
  onEmailFailed(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.EmailReceived, GATHER)
  onEmailReceived(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.ContactCreated, GATHER)
  onContactCreated(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.ContactDeleted, GATHER)
  onContactDeleted(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.ContactSubscribed, GATHER)
  onContactSubscribed(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.ContactUnsubscribed, GATHER)
  onContactUnsubscribed(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.EventTracked, GATHER)
  onEventTracked(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.SegmentEntered, GATHER)
  onSegmentEntered(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.SegmentExited, GATHER)
  onSegmentExited(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.CampaignScheduled, GATHER)
  onCampaignScheduled(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.CampaignSending, GATHER)
  onCampaignSending(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.CampaignSent, GATHER)
  onCampaignSent(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.CampaignCancelled, GATHER)
  onCampaignCancelled(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  /** Campaigns publish it as they create, change and delete a campaign: the list knows a campaign from its creation. */
  @OnEventBatch(ANALYTICS, Topics.ResourceReferencesChanged, GATHER)
  onResourceReferencesChanged(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.WorkflowStarted, GATHER)
  onWorkflowStarted(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.WorkflowStepCompleted, GATHER)
  onWorkflowStepCompleted(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.WorkflowWaiting, GATHER)
  onWorkflowWaiting(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.WorkflowFinished, GATHER)
  onWorkflowFinished(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
}
