import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ActivityHourly, ActivityMinutely, ActivityTypeCount } from '../projection/activity.entities.js';

/** An hour's count of a type, or (summed per local day) a day's, dated by its first hour. */
export interface HourlyCount {
  hour: Date;
  type: string;
  count: string;
}

/** Reads of the chart aggregates: counts per hour (`activity_hourly`), per minute (`activity_minutely`) and per type (`activity_types`). */
@Injectable()
export class ChartsStore {
  /**
   * The project's counts of `types` in the hours of [from, to). With `dayZone`, summed per local day
   * of that time zone (the day each UTC hour starts in), each day dated by its first hour: at most 400
   * rows per type instead of 24 times that.
   */
  hourly(
    m: EntityManager,
    projectId: string,
    from: Date,
    to: Date,
    types: string[],
    dayZone?: string,
  ): Promise<HourlyCount[]> {
    return m.query(
      dayZone !== undefined
        ? `SELECT min(hour) AS hour, type, sum(count) AS count FROM ${tableName(m, ActivityHourly)}
            WHERE project_id = $1 AND hour >= $2 AND hour < $3 AND type = ANY($4::varchar[])
            GROUP BY date_trunc('day', hour AT TIME ZONE $5), type`
        : `SELECT hour, type, count FROM ${tableName(m, ActivityHourly)}
            WHERE project_id = $1 AND hour >= $2 AND hour < $3 AND type = ANY($4::varchar[])`,
      [projectId, from, to, types, ...(dayZone !== undefined ? [dayZone] : [])],
    );
  }

  /** The project's feed items counted in the minutes from `since` on. */
  async sinceMinute(m: EntityManager, projectId: string, since: Date): Promise<number> {
    const [row] = (await m.query(
      `SELECT COALESCE(sum(count), 0) AS n FROM ${tableName(m, ActivityMinutely)} WHERE project_id = $1 AND minute >= $2`,
      [projectId, since],
    )) as { n: string }[];
    return Number(row?.n ?? 0);
  }

  /** The feed types the project has seen, most frequent first (ties by type). */
  types(m: EntityManager, projectId: string): Promise<{ type: string; count: string; last_seen_at: Date }[]> {
    return m.query(
      `SELECT type, count, last_seen_at FROM ${tableName(m, ActivityTypeCount)}
        WHERE project_id = $1 ORDER BY count DESC, type`,
      [projectId],
    );
  }
}
