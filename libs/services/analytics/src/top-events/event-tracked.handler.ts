import { Topics, type EventEnvelope, type EventTrackedV1 } from '@herald/contracts';
import { EventBatchContext, OnEventBatch } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { ANALYTICS } from '../consumer.js';
import { EventCount, EventCountDaily } from './event-count.entity.js';

/**
 * Counts tracked events per name, in the transaction that also records the events as applied: a
 * delivered batch is summed per (project, name) first and written with one multi-row upsert, in
 * key order so that concurrent batches lock the counter rows in the same order; the same per UTC day
 * (`top-events` over a range). `gather`: sums do not depend on the order of topics.
 */
@Controller()
export class EventTrackedHandler {
  @OnEventBatch(ANALYTICS, Topics.EventTracked, { gather: true })
  async onEventsTracked(
    @Payload() events: EventEnvelope<EventTrackedV1>[],
    @Ctx() ctx: EventBatchContext,
  ): Promise<void> {
    const counts = new Map<string, { projectId: string; name: string; count: number; lastSeenAt: string }>();
    for (const e of events) {
      const key = `${e.projectId}\u0000${e.payload.name}`;
      const c = counts.get(key);
      if (!c) counts.set(key, { projectId: e.projectId, name: e.payload.name, count: 1, lastSeenAt: e.occurredAt });
      else {
        c.count++;
        if (Date.parse(e.occurredAt) > Date.parse(c.lastSeenAt)) c.lastSeenAt = e.occurredAt;
      }
    }
    const rows = [...counts.keys()].sort().map((k) => counts.get(k)!);
    await ctx.manager.query(
      `INSERT INTO ${tableName(ctx.manager, EventCount)} AS t (project_id, name, count, last_seen_at)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::bigint[], $4::timestamptz[])
       ON CONFLICT (project_id, name) DO UPDATE
         SET count = t.count + EXCLUDED.count, last_seen_at = GREATEST(t.last_seen_at, EXCLUDED.last_seen_at)`,
      [rows.map((r) => r.projectId), rows.map((r) => r.name), rows.map((r) => r.count), rows.map((r) => r.lastSeenAt)],
    );
    const daily = new Map<string, { projectId: string; day: string; name: string; count: number }>();
    for (const e of events) {
      const day = new Date(e.occurredAt).toISOString().slice(0, 10);
      const key = `${e.projectId}\u0000${day}\u0000${e.payload.name}`;
      const d = daily.get(key);
      if (d) d.count++;
      else daily.set(key, { projectId: e.projectId, day, name: e.payload.name, count: 1 });
    }
    const days = [...daily.keys()].sort().map((k) => daily.get(k)!);
    await ctx.manager.query(
      `INSERT INTO ${tableName(ctx.manager, EventCountDaily)} AS t (project_id, day, name, count)
       SELECT * FROM unnest($1::varchar[], $2::date[], $3::varchar[], $4::bigint[])
       ON CONFLICT (project_id, day, name) DO UPDATE SET count = t.count + EXCLUDED.count`,
      [days.map((r) => r.projectId), days.map((r) => r.day), days.map((r) => r.name), days.map((r) => r.count)],
    );
  }
}
