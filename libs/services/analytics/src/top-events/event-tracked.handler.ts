import { Topics, type EventEnvelope, type EventTrackedV1 } from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { ANALYTICS } from '../consumer.js';
import { EventCount } from './event-count.entity.js';

/** Counts tracked events per name, in the transaction that also records the event as applied. */
@Controller()
export class EventTrackedHandler {
  @OnEvent(ANALYTICS, Topics.EventTracked)
  async onEventTracked(@Payload() event: EventEnvelope<EventTrackedV1>, @Ctx() ctx: EventContext): Promise<void> {
    await ctx.manager.query(
      `INSERT INTO ${tableName(ctx.manager, EventCount)} AS t (project_id, name, count, last_seen_at)
       VALUES ($1, $2, 1, $3)
       ON CONFLICT (project_id, name) DO UPDATE
         SET count = t.count + 1, last_seen_at = GREATEST(t.last_seen_at, EXCLUDED.last_seen_at)`,
      [event.projectId, event.payload.name, event.occurredAt],
    );
  }
}
