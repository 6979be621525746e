import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DayCount, NameCount } from './event-counts.js';
import { EventCount, EventCountDaily } from './event-count.entity.js';

const col = <T, K extends keyof T>(rows: T[], k: K): T[K][] => rows.map((r) => r[k]);

/**
 * Tracked events counted per project and name (`event_counts`, all time) and per UTC day
 * (`event_counts_daily`): each write one multi-row upsert that adds to what is there, its rows in the
 * order given (callers sort them by key).
 */
@Injectable()
export class EventCountsStore {
  /** Adds to the per-name counts; the last seen time only moves forward. */
  async addCounts(m: EntityManager, rows: NameCount[]): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, EventCount)} AS t (project_id, name, count, last_seen_at)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::bigint[], $4::timestamptz[])
       ON CONFLICT (project_id, name) DO UPDATE
         SET count = t.count + EXCLUDED.count, last_seen_at = GREATEST(t.last_seen_at, EXCLUDED.last_seen_at)`,
      [col(rows, 'projectId'), col(rows, 'name'), col(rows, 'count'), col(rows, 'lastSeenAt')],
    );
  }

  /** Adds to the per-day counts. */
  async addDays(m: EntityManager, days: DayCount[]): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, EventCountDaily)} AS t (project_id, day, name, count)
       SELECT * FROM unnest($1::varchar[], $2::date[], $3::varchar[], $4::bigint[])
       ON CONFLICT (project_id, day, name) DO UPDATE SET count = t.count + EXCLUDED.count`,
      [col(days, 'projectId'), col(days, 'day'), col(days, 'name'), col(days, 'count')],
    );
  }

  /** The project's `limit` most tracked names of all time (ties by name). */
  top(m: EntityManager, projectId: string, limit: number): Promise<EventCount[]> {
    return m.getRepository(EventCount).find({
      where: { projectId },
      order: { count: 'DESC', name: 'ASC' },
      take: limit,
    });
  }

  /** The project's `limit` most tracked names over the UTC days `fromDay` to `toDay` (`YYYY-MM-DD`, inclusive; ties by name). */
  topInDays(
    m: EntityManager,
    projectId: string,
    fromDay: string,
    toDay: string,
    limit: number,
  ): Promise<{ name: string; n: string }[]> {
    return m.query(
      `SELECT name, sum(count) AS n FROM ${tableName(m, EventCountDaily)}
          WHERE project_id = $1 AND day BETWEEN $2::date AND $3::date
          GROUP BY name ORDER BY n DESC, name LIMIT $4`,
      [projectId, fromDay, toDay, limit],
    );
  }
}
