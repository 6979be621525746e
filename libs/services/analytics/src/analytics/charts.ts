import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ANALYTICS } from '../consumer.js';
import { METRIC_TYPES, type Metric } from '../projection/activity-item.js';
import { bucketsBetween, bucketStart, fillSeries, localIso, type Interval } from '../time/buckets.js';
import type { TimeRange } from '../time/query-range.js';
import { ChartsStore } from './charts.store.js';

export interface SeriesQuery {
  range: TimeRange;
  interval: Interval;
  tz: string;
}

export interface Series {
  from: string;
  to: string;
  interval: Interval;
  tz: string;
  buckets: ({ start: string } & Record<string, number | string>)[];
}

/**
 * Chart reads over the hourly aggregates (never the feed): a range of at most MAX_RANGE_DAYS reads
 * at most 24 × 400 rows per type. The buckets are made in the caller's time zone and empty ones
 * are zero (time/buckets.ts).
 */
@Injectable()
export class Charts {
  constructor(
    @InjectDataSource(ANALYTICS) private readonly db: DataSource,
    private readonly store: ChartsStore,
  ) {}

  /** Counts of the given feed types per bucket, keyed by `names` (type → the key it is reported under). */
  private async series(projectId: string, q: SeriesQuery, names: Map<string, string>): Promise<Series> {
    const buckets = bucketsBetween(q.range.from, q.range.to, q.interval, q.tz);
    const first = buckets[0] ?? bucketStart(q.range.from, q.interval, q.tz);
    // day buckets are summed in SQL per local day (the day each UTC hour starts in, as fillSeries places
    // them), each group represented by its first hour
    const rows = await this.store.hourly(
      this.db.manager,
      projectId,
      first,
      q.range.to,
      [...names.keys()],
      q.interval === 'day' ? q.tz : undefined,
    );
    const keys = [...new Set(names.values())];
    const filled = fillSeries(
      buckets,
      q.interval,
      q.tz,
      keys,
      rows.map((r) => ({ hour: r.hour, metric: names.get(r.type)!, count: Number(r.count) })),
    );
    return {
      from: localIso(q.range.from, q.tz),
      to: localIso(q.range.to, q.tz),
      interval: q.interval,
      tz: q.tz,
      buckets: filled.map((b) => ({ start: b.start, ...b.values })),
    };
  }

  /** `/analytics/timeseries`: the chosen email metrics per bucket. */
  timeseries(projectId: string, q: SeriesQuery & { metrics: Metric[] }): Promise<Series> {
    return this.series(projectId, q, new Map(q.metrics.map((m) => [METRIC_TYPES[m], m])));
  }

  /** `/activity/stats`: counts per feed type per bucket, and the totals over the range. */
  async stats(
    projectId: string,
    q: SeriesQuery & { types: string[] },
  ): Promise<Series & { totals: Record<string, number> }> {
    const s = await this.series(projectId, q, new Map(q.types.map((t) => [t, t])));
    const totals = Object.fromEntries(q.types.map((t) => [t, 0]));
    for (const b of s.buckets) for (const t of q.types) totals[t]! += b[t] as number;
    return { ...s, totals };
  }

  /** `/activity/recent-count`: feed items of the last `minutes` minutes (whole minutes, from the minute counts). */
  async recentCount(
    projectId: string,
    minutes: number,
    now = new Date(),
  ): Promise<{ minutes: number; since: string; count: number }> {
    const since = new Date(Math.floor(now.getTime() / 60_000) * 60_000 - (minutes - 1) * 60_000);
    const count = await this.store.sinceMinute(this.db.manager, projectId, since);
    return { minutes, since: since.toISOString(), count };
  }

  /** `/activity/types`: the feed types the project has seen, most frequent first. */
  async types(projectId: string): Promise<{ types: { type: string; count: number; lastSeenAt: string }[] }> {
    const rows = await this.store.types(this.db.manager, projectId);
    return {
      types: rows.map((r) => ({ type: r.type, count: Number(r.count), lastSeenAt: r.last_seen_at.toISOString() })),
    };
  }
}
