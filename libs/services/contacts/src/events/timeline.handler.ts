import { Topics, type EventEnvelope } from '@herald/contracts';
import { EventBatchContext, OnEventBatch } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { CONTACTS } from '../consumer.js';
import { TimelineProjection } from './timeline.projection.js';

/** Projects subscription changes, the email lifecycle, received messages and segment entries and exits into the contacts' timelines (see TimelineProjection). */
@Controller()
export class TimelineHandler {
  constructor(private readonly timeline: TimelineProjection) {}

  @OnEventBatch(CONTACTS, Topics.ContactSubscribed)
  subscribed(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }

  @OnEventBatch(CONTACTS, Topics.ContactUnsubscribed)
  unsubscribed(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }

  @OnEventBatch(CONTACTS, Topics.EmailSent)
  sent(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }

  @OnEventBatch(CONTACTS, Topics.EmailDelivered)
  delivered(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }

  @OnEventBatch(CONTACTS, Topics.EmailOpened)
  opened(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }

  @OnEventBatch(CONTACTS, Topics.EmailClicked)
  clicked(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }

  @OnEventBatch(CONTACTS, Topics.EmailBounced)
  bounced(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }

  @OnEventBatch(CONTACTS, Topics.EmailComplained)
  complained(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }

  @OnEventBatch(CONTACTS, Topics.SegmentEntered)
  segmentEntered(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }

  @OnEventBatch(CONTACTS, Topics.SegmentExited)
  segmentExited(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }

  @OnEventBatch(CONTACTS, Topics.EmailFailed)
  failed(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }

  /** A message the sender's contact wrote in (docs/inbound.md). */
  @OnEventBatch(CONTACTS, Topics.EmailReceived)
  received(@Payload() events: EventEnvelope[], @Ctx() ctx: EventBatchContext): Promise<number> {
    return this.timeline.project(ctx.manager, events);
  }
}
