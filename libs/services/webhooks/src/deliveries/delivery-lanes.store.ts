import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { WEBHOOKS } from '../consumer.js';
import { Endpoint } from '../endpoints/endpoint.entity.js';
import { Delivery } from './delivery.entity.js';
import { DeliveryLane } from './delivery-lane.entity.js';

/** A lane of an endpoint. */
export interface LaneRef {
  endpointId: string;
  projectId: string;
  lane: number;
}

/** A lane whose chain gets a new link: its number and when it runs. */
export interface NewLink extends LaneRef {
  seq: number;
  dueAt: Date;
}

const rowsOf = (r: unknown): Record<string, unknown>[] =>
  Array.isArray(r) && Array.isArray(r[0]) ? (r[0] as Record<string, unknown>[]) : (r as Record<string, unknown>[]);

/** The SQL of delivery lanes: their chain numbers and due times, under row locks. */
@Injectable()
export class DeliveryLanesStore {
  constructor(@InjectDataSource(WEBHOOKS) private readonly db: DataSource) {}

  /**
   * Wakes lanes that have new due work, in the caller's transaction: each lane is created if new and
   * locked until the caller commits (so a link deciding to stop waits for the deliveries written
   * before); a lane that is idle, or whose next link waits for a later retry, gets a new link due now
   * (its number moved on: the waiting link, if any, is retired). A lane whose link is due or running
   * needs nothing: that link reads the new work. Answers the new links.
   */
  async wake(m: EntityManager, lanes: LaneRef[]): Promise<NewLink[]> {
    if (lanes.length === 0) return [];
    const table = tableName(m, DeliveryLane);
    const params = [lanes.map((l) => l.endpointId), lanes.map((l) => l.lane), lanes.map((l) => l.projectId)];
    await m.query(
      `INSERT INTO ${table} (endpoint_id, lane, project_id)
       SELECT * FROM unnest($1::varchar[], $2::smallint[], $3::varchar[]) ON CONFLICT DO NOTHING`,
      params,
    );
    // one statement takes every lock, in one order: two transactions waking overlapping lanes never deadlock
    const locked = (await m.query(
      `SELECT l.endpoint_id, l.lane, l.project_id, (l.due_at IS NOT NULL AND l.due_at <= now()) AS live
         FROM ${table} l JOIN unnest($1::varchar[], $2::smallint[]) AS w(endpoint_id, lane)
           ON l.endpoint_id = w.endpoint_id AND l.lane = w.lane
        ORDER BY l.endpoint_id, l.lane
        FOR UPDATE OF l`,
      params.slice(0, 2),
    )) as { endpoint_id: string; lane: number; project_id: string; live: boolean }[];
    const idle = locked.filter((l) => !l.live);
    if (idle.length === 0) return [];
    return rowsOf(
      await m.query(
        `UPDATE ${table} l SET link_seq = l.link_seq + 1, due_at = now()
           FROM unnest($1::varchar[], $2::smallint[]) AS w(endpoint_id, lane)
          WHERE l.endpoint_id = w.endpoint_id AND l.lane = w.lane
          RETURNING l.endpoint_id, l.lane, l.project_id, l.link_seq, l.due_at`,
        [idle.map((l) => l.endpoint_id), idle.map((l) => Number(l.lane))],
      ),
    ).map(toLink);
  }

  /** Whether link `seq` is the lane's current one. */
  async isCurrent(endpointId: string, lane: number, seq: number): Promise<boolean> {
    const [row] = (await this.db.query(
      `SELECT link_seq FROM ${tableName(this.db, DeliveryLane)} WHERE endpoint_id = $1 AND lane = $2`,
      [endpointId, lane],
    )) as { link_seq: number }[];
    return row?.link_seq === seq;
  }

  /**
   * Ends link `seq` of a lane, in the caller's transaction, under the lane's lock: the next link runs
   * when the lane's earliest pending delivery is due (now at the earliest), or none when nothing is
   * pending or `idle` (a disabled endpoint). Undefined when `seq` is not the lane's current link
   * (another link or a wake moved the chain on): it decides nothing.
   */
  async advance(
    m: EntityManager,
    ref: { endpointId: string; lane: number },
    seq: number,
    idle: boolean,
  ): Promise<{ next?: NewLink } | undefined> {
    const table = tableName(m, DeliveryLane);
    const [lane] = (await m.query(`SELECT link_seq FROM ${table} WHERE endpoint_id = $1 AND lane = $2 FOR UPDATE`, [
      ref.endpointId,
      ref.lane,
    ])) as { link_seq: number }[];
    if (lane?.link_seq !== seq) return undefined;
    const [updated] = rowsOf(
      await m.query(
        `UPDATE ${table} SET link_seq = link_seq + 1,
                due_at = CASE WHEN $3 THEN NULL ELSE (
                  -- greatest() skips a NULL: no pending delivery must stay NULL (idle), not become now()
                  SELECT CASE WHEN min(d.next_attempt_at) IS NULL THEN NULL ELSE greatest(min(d.next_attempt_at), now()) END
                    FROM ${tableName(m, Delivery)} d
                   WHERE d.endpoint_id = $1 AND d.lane = $2 AND d.status = 'pending') END
          WHERE endpoint_id = $1 AND lane = $2
          RETURNING endpoint_id, lane, project_id, link_seq, due_at`,
        [ref.endpointId, ref.lane, idle],
      ),
    );
    return updated && updated.due_at ? { next: toLink(updated) } : {};
  }

  /**
   * Lanes of enabled endpoints that should have a link but may not (their due time is set, or they
   * have pending deliveries), except those in `live` (`<endpoint id>:<lane>` of queued or running links).
   */
  async lanesToRestart(live: Set<string>): Promise<LaneRef[]> {
    const rows = (await this.db.query(
      `SELECT l.endpoint_id, l.lane, l.project_id FROM ${tableName(this.db, DeliveryLane)} l
         JOIN ${tableName(this.db, Endpoint)} e ON e.id = l.endpoint_id AND e.enabled
        WHERE l.due_at IS NOT NULL OR EXISTS (
          SELECT 1 FROM ${tableName(this.db, Delivery)} d
           WHERE d.endpoint_id = l.endpoint_id AND d.lane = l.lane AND d.status = 'pending')`,
    )) as { endpoint_id: string; lane: number; project_id: string }[];
    return rows
      .map((r) => ({ endpointId: r.endpoint_id, lane: Number(r.lane), projectId: r.project_id }))
      .filter((r) => !live.has(`${r.endpointId}:${r.lane}`));
  }

  /** Gives a lane a new link due now whatever its state (its chain broke: its last link is dead or gone). */
  async restart(m: EntityManager, ref: LaneRef): Promise<NewLink | undefined> {
    const [row] = rowsOf(
      await m.query(
        `UPDATE ${tableName(m, DeliveryLane)} SET link_seq = link_seq + 1, due_at = now()
          WHERE endpoint_id = $1 AND lane = $2
          RETURNING endpoint_id, lane, project_id, link_seq, due_at`,
        [ref.endpointId, ref.lane],
      ),
    );
    return row && toLink(row);
  }

  /** Deletes an endpoint's lanes, in the caller's transaction (their links find them gone). */
  async deleteOf(m: EntityManager, endpointId: string): Promise<void> {
    await m.query(`DELETE FROM ${tableName(m, DeliveryLane)} WHERE endpoint_id = $1`, [endpointId]);
  }
}

function toLink(r: Record<string, unknown>): NewLink {
  return {
    endpointId: r.endpoint_id as string,
    lane: Number(r.lane),
    projectId: r.project_id as string,
    seq: Number(r.link_seq),
    dueAt: r.due_at as Date,
  };
}
