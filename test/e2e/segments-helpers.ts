import pg from 'pg';
import type { EventEnvelope } from '@herald/contracts';
import { outboxChannel } from '@herald/messaging';
import { eventually } from '@herald/testing';
import type { ProjectApi, Reply } from './contacts-helpers.js';

/** Shapes of the segments API these specs read. */
export interface SegmentBody {
  id: string;
  name: string;
  description: string | null;
  type: 'DYNAMIC' | 'STATIC';
  filters: Record<string, unknown> | null;
  condition: Record<string, unknown> | null;
  trackMembership: boolean;
  memberCount: number;
}

export interface MembershipEvent {
  topic: 'segment.entered' | 'segment.exited';
  payload: {
    segmentId: string;
    segmentName: string;
    contactId: string;
    email: string;
    at: string;
    reason: 'compute' | 'change' | 'sweep';
  };
}

/** POST /segments and insist on 201. */
export async function createSegment(api: ProjectApi, body: Record<string, unknown>): Promise<SegmentBody> {
  const res: Reply<SegmentBody> = await api.post('/segments', body);
  if (res.status !== 201) throw new Error(`POST /segments answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A filter of one condition. */
export const where = (field: string, operator: string, value?: unknown, extra: Record<string, unknown> = {}) => ({
  operator: 'AND',
  conditions: [{ field, operator, ...(value === undefined ? {} : { value }), ...extra }],
});

/** The ids of a segment's live or stored members, in the listing's order (first 100). */
export async function memberIds(api: ProjectApi, segmentId: string): Promise<string[]> {
  const res = await api.get<{ data: { id: string }[] }>(`/segments/${segmentId}/contacts?pageSize=100`);
  if (res.status !== 200) throw new Error(`GET /segments/${segmentId}/contacts answered ${res.status}`);
  return res.body.data.map((c) => c.id);
}

/** Reads `segments.outbox`: the entries and exits the segments service committed. */
export class SegmentsOutbox {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  }

  async events(segmentId: string): Promise<MembershipEvent[]> {
    const { rows } = await this.pool.query<MembershipEvent>(
      `SELECT topic, envelope->'payload' AS payload FROM segments.outbox
        WHERE topic IN ('segment.entered', 'segment.exited') AND envelope->'payload'->>'segmentId' = $1 ORDER BY id`,
      [segmentId],
    );
    return rows;
  }

  /** Waits until the segment's events satisfy `done`, and returns them. */
  until(segmentId: string, done: (events: MembershipEvent[]) => boolean, timeoutMs = 5_000, message?: string) {
    return eventually(
      async () => {
        const events = await this.events(segmentId);
        return done(events) ? events : undefined;
      },
      { timeoutMs, intervalMs: 25, message: message ?? `segment ${segmentId}: the expected events never came` },
    );
  }

  query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<T>> {
    return this.pool.query<T>(sql, params);
  }

  /** What another service's use case does: `event` in its outbox, committed (its relay publishes it). */
  async publishAs(service: string, event: EventEnvelope): Promise<void> {
    await this.pool.query(
      `WITH ins AS (INSERT INTO "${service}".outbox (event_id, topic, message_key, envelope) VALUES ($1, $2, $3, $4) RETURNING 1)
       SELECT pg_notify($5, count(*)::text) FROM ins`,
      [event.eventId, event.type, event.key, JSON.stringify(event), outboxChannel(service)],
    );
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

export const entered = (events: MembershipEvent[], contactId: string) =>
  events.filter((e) => e.topic === 'segment.entered' && e.payload.contactId === contactId);
export const exited = (events: MembershipEvent[], contactId: string) =>
  events.filter((e) => e.topic === 'segment.exited' && e.payload.contactId === contactId);
