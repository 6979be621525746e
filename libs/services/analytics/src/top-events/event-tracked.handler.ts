import { Topics, type EventEnvelope, type EventTrackedV1 } from '@herald/contracts';
import { EventBatchContext, OnEventBatch } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { ANALYTICS } from '../consumer.js';
import { dayCounts, nameCounts } from './event-counts.js';
import { EventCountsStore } from './event-counts.store.js';

/**
 * Counts tracked events per name, in the transaction that also records the events as applied: a
 * delivered batch is summed per (project, name) first and written with one multi-row upsert, in
 * key order so that concurrent batches lock the counter rows in the same order; the same per UTC day
 * (`top-events` over a range). `gather`: sums do not depend on the order of topics.
 */
@Controller()
export class EventTrackedHandler {
  constructor(private readonly store: EventCountsStore) {}

  @OnEventBatch(ANALYTICS, Topics.EventTracked, { gather: true })
  async onEventsTracked(
    @Payload() events: EventEnvelope<EventTrackedV1>[],
    @Ctx() ctx: EventBatchContext,
  ): Promise<void> {
    await this.store.addCounts(ctx.manager, nameCounts(events));
    await this.store.addDays(ctx.manager, dayCounts(events));
  }
}
