import { Topics, type EventEnvelope } from '@herald/contracts';
import { EventBatchContext, OnEventBatch } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { ANALYTICS } from '../consumer.js';
import { ActivityProjector } from './activity-projector.js';

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
  @OnEventBatch(ANALYTICS, Topics.ContactCreated)
  onContactCreated(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.ContactDeleted)
  onContactDeleted(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.ContactSubscribed)
  onContactSubscribed(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.ContactUnsubscribed)
  onContactUnsubscribed(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.EventTracked)
  onEventTracked(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.SegmentEntered)
  onSegmentEntered(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.SegmentExited)
  onSegmentExited(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.CampaignScheduled)
  onCampaignScheduled(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.CampaignSending)
  onCampaignSending(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.CampaignSent)
  onCampaignSent(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.CampaignCancelled)
  onCampaignCancelled(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.WorkflowStarted)
  onWorkflowStarted(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.WorkflowStepCompleted)
  onWorkflowStepCompleted(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.WorkflowWaiting)
  onWorkflowWaiting(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
  @OnEventBatch(ANALYTICS, Topics.WorkflowFinished)
  onWorkflowFinished(@Payload() e: EventEnvelope[], @Ctx() ctx: EventBatchContext) {
    return this.apply(e, ctx);
  }
}
