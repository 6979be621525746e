import { keysetPage, type CursorPage, type CursorQueryDto } from '@herald/http';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { WEBHOOKS } from '../consumer.js';
import { Delivery, type DeliveryStatus } from './delivery.entity.js';

/** A delivery to write (the fan-out of an event, a test event). */
export interface NewDelivery {
  id: string;
  endpointId: string;
  projectId: string;
  eventId: string;
  eventType: string;
  body: string;
  lane: number;
}

/** A due delivery as an attempt needs it. */
export interface DueDelivery {
  id: string;
  eventId: string;
  body: string;
  attempts: number;
}

/** What one attempt saw and what became of the delivery. */
export interface AttemptRecord {
  status: DeliveryStatus;
  /** When a pending delivery is due again. */
  retryInMs?: number;
  responseStatus: number | null;
  responseBody: string | null;
  latencyMs: number;
  error: string | null;
}

/** The delivery columns the log shows. */
export const DELIVERY_COLUMNS = `id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, last_attempt_at,
  response_status, response_body, latency_ms, last_error, delivered_at, created_at`;

const rowsOf = (r: unknown): Record<string, unknown>[] =>
  Array.isArray(r) && Array.isArray(r[0]) ? (r[0] as Record<string, unknown>[]) : (r as Record<string, unknown>[]);

/** The SQL of deliveries: the fan-out's inserts, a lane's due work, attempts, the log and replays. */
@Injectable()
export class DeliveriesStore {
  constructor(@InjectDataSource(WEBHOOKS) private readonly db: DataSource) {}

  /**
   * Writes deliveries in the caller's transaction, due now; one that exists for its endpoint and event
   * already is skipped (a redelivered event). Answers those written.
   */
  async insertMany(m: EntityManager, rows: NewDelivery[]): Promise<NewDelivery[]> {
    if (rows.length === 0) return [];
    // in the rows' order, so that `seq` follows the events' order
    const inserted = (await m.query(
      `INSERT INTO ${tableName(m, Delivery)} (id, endpoint_id, project_id, event_id, event_type, body, lane, next_attempt_at)
       SELECT u.id, u.endpoint_id, u.project_id, u.event_id, u.event_type, u.body, u.lane, now()
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::uuid[], $5::varchar[], $6::text[], $7::smallint[])
              WITH ORDINALITY AS u(id, endpoint_id, project_id, event_id, event_type, body, lane, n)
        ORDER BY u.n
       ON CONFLICT (endpoint_id, event_id) DO NOTHING
       RETURNING id`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.endpointId),
        rows.map((r) => r.projectId),
        rows.map((r) => r.eventId),
        rows.map((r) => r.eventType),
        rows.map((r) => r.body),
        rows.map((r) => r.lane),
      ],
    )) as { id: string }[];
    const ids = new Set(inserted.map((r) => r.id));
    return rows.filter((r) => ids.has(r.id));
  }

  /**
   * Claims the lane's first due pending delivery, in the order the deliveries were written, for an
   * attempt of at most `holdMs`: it is not due again before then, so that another worker running the
   * lane's link meanwhile (its lease ran out while this attempt was in flight) does not send it too.
   * The attempt's record sets when it is due next; a worker that dies mid-attempt leaves it due after `holdMs`.
   */
  async nextDue(endpointId: string, lane: number, holdMs: number): Promise<DueDelivery | undefined> {
    const table = tableName(this.db, Delivery);
    const [row] = rowsOf(
      await this.db.query(
        `UPDATE ${table} d SET next_attempt_at = now() + ($3::int * interval '1 millisecond')
          WHERE d.id = (SELECT id FROM ${table}
                         WHERE endpoint_id = $1 AND lane = $2 AND status = 'pending' AND next_attempt_at <= now()
                         ORDER BY seq LIMIT 1 FOR UPDATE)
            AND d.next_attempt_at <= now()
          RETURNING d.id, d.event_id, d.body, d.attempts`,
        [endpointId, lane, holdMs],
      ),
    ) as { id: string; event_id: string; body: string; attempts: number }[];
    return row && { id: row.id, eventId: row.event_id, body: row.body, attempts: row.attempts };
  }

  /** When the lane's earliest pending delivery is due (under the caller's lock of the lane), if any. */
  async earliestDue(m: EntityManager, endpointId: string, lane: number): Promise<Date | undefined> {
    const [row] = (await m.query(
      `SELECT min(next_attempt_at) AS due FROM ${tableName(m, Delivery)}
        WHERE endpoint_id = $1 AND lane = $2 AND status = 'pending'`,
      [endpointId, lane],
    )) as { due: Date | null }[];
    return row?.due ?? undefined;
  }

  /**
   * Records attempt number `previousAttempts + 1` of a pending delivery; false when the delivery moved
   * on meanwhile (deleted, or another attempt recorded first).
   */
  async record(m: EntityManager, id: string, previousAttempts: number, attempt: AttemptRecord): Promise<boolean> {
    const rows = rowsOf(
      await m.query(
        `UPDATE ${tableName(m, Delivery)} SET attempts = attempts + 1, status = $3::varchar, last_attempt_at = now(),
                next_attempt_at = CASE WHEN $3::varchar = 'pending' THEN now() + ($4::int * interval '1 millisecond') END,
                delivered_at = CASE WHEN $3::varchar = 'delivered' THEN now() END,
                response_status = $5::int, response_body = $6::text, latency_ms = $7::int, last_error = $8::text
          WHERE id = $1 AND attempts = $2 AND status = 'pending'
          RETURNING id`,
        [
          id,
          previousAttempts,
          attempt.status,
          attempt.retryInMs ?? 0,
          attempt.responseStatus,
          attempt.responseBody,
          attempt.latencyMs,
          attempt.error,
        ],
      ),
    );
    return rows.length > 0;
  }

  /** An endpoint's deliveries, newest first, a cursor page at a time. */
  page(endpointId: string, q: CursorQueryDto): Promise<CursorPage<Record<string, unknown>>> {
    return keysetPage(this.db, q, {
      table: tableName(this.db, Delivery),
      columns: DELIVERY_COLUMNS,
      filters: ['endpoint_id = $1'],
      params: [endpointId],
    });
  }

  async find(endpointId: string, id: string): Promise<Record<string, unknown> | undefined> {
    const [row] = (await this.db.query(
      `SELECT ${DELIVERY_COLUMNS} FROM ${tableName(this.db, Delivery)} WHERE endpoint_id = $1 AND id = $2`,
      [endpointId, id],
    )) as Record<string, unknown>[];
    return row;
  }

  /**
   * Puts deliveries of an endpoint back to pending, due now, their attempts counted afresh (a replay):
   * one by id, or those created in [from, to). Answers each one's id and lane.
   */
  async replay(
    m: EntityManager,
    endpointId: string,
    which: { id: string } | { from: Date; to: Date },
  ): Promise<{ id: string; lane: number }[]> {
    const [filter, params] =
      'id' in which ? ['id = $2', [which.id]] : ['created_at >= $2 AND created_at < $3', [which.from, which.to]];
    return rowsOf(
      await m.query(
        `UPDATE ${tableName(m, Delivery)} SET status = 'pending', attempts = 0, next_attempt_at = now(), delivered_at = NULL
          WHERE endpoint_id = $1 AND ${filter}
          RETURNING id, lane`,
        [endpointId, ...params],
      ),
    ).map((r) => ({ id: r.id as string, lane: Number(r.lane) }));
  }

  /** The lanes of an endpoint that have pending deliveries. */
  async pendingLanes(m: EntityManager, endpointId: string): Promise<number[]> {
    const rows = (await m.query(
      `SELECT DISTINCT lane FROM ${tableName(m, Delivery)} WHERE endpoint_id = $1 AND status = 'pending'`,
      [endpointId],
    )) as { lane: number }[];
    return rows.map((r) => Number(r.lane));
  }

  /**
   * Deletes at most `limit` delivered or dead deliveries created more than `retentionMs` ago (a
   * retention batch: the rows picked first, then deleted by address, the condition checked again).
   */
  async pruneFinished(retentionMs: number, limit: number): Promise<number> {
    const table = tableName(this.db, Delivery);
    const [, n] = (await this.db.query(
      `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM ${table}
          WHERE status <> 'pending' AND created_at < now() - $1::bigint * interval '1 millisecond' LIMIT $2))
         AND status <> 'pending' AND created_at < now() - $1::bigint * interval '1 millisecond'`,
      [retentionMs, limit],
    )) as [unknown, number];
    return n;
  }

  /** Deletes every delivery of an endpoint, in the caller's transaction. */
  async deleteOf(m: EntityManager, endpointId: string): Promise<void> {
    await m.query(`DELETE FROM ${tableName(m, Delivery)} WHERE endpoint_id = $1`, [endpointId]);
  }
}
