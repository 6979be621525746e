/**
 * Time buckets of the charts, in the caller's time zone. Aggregates are stored per UTC hour; an
 * `hour` bucket is one of those hours, a `day` bucket runs from one local midnight to the next
 * (23 or 25 hours on the days daylight saving time starts or ends). Pure functions over
 * `Intl.DateTimeFormat`, so the same rules run in the routes and in their unit tests.
 */
export type Interval = 'hour' | 'day';

const HOUR_MS = 3_600_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Whether `tz` is an IANA time zone name this runtime knows (`UTC`, `Europe/Berlin`, …). */
export function isTimeZone(tz: string): boolean {
  if (tz.length === 0 || tz.length > 64) return false;
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock time at `instant` in `tz`. */
export function wallTime(instant: Date, tz: string): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Offset of `tz` from UTC at `instant`, in milliseconds (east positive). */
export function offsetAt(instant: Date, tz: string): number {
  const w = wallTime(instant, tz);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant a local calendar day starts in `tz`: its midnight, or, where the clocks jump over
 * midnight (a few zones start DST at 00:00), the first wall-clock time that exists that day.
 */
export function startOfLocalDay(year: number, month: number, day: number, tz: string): Date {
  const naive = Date.UTC(year, month - 1, day);
  let guess = naive - offsetAt(new Date(naive), tz);
  guess = naive - offsetAt(new Date(guess), tz);
  // landed on the previous day (midnight does not exist there): the day starts when the gap ends
  while (wallTime(new Date(guess), tz).day !== day) guess += 15 * 60_000;
  return new Date(guess);
}

/** The start of the bucket holding `instant`. */
export function bucketStart(instant: Date, interval: Interval, tz: string): Date {
  if (interval === 'hour') return new Date(Math.floor(instant.getTime() / HOUR_MS) * HOUR_MS);
  const w = wallTime(instant, tz);
  return startOfLocalDay(w.year, w.month, w.day, tz);
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucket(start: Date, interval: Interval, tz: string): Date {
  if (interval === 'hour') return new Date(start.getTime() + HOUR_MS);
  const w = wallTime(new Date(start.getTime() + 12 * HOUR_MS), tz);
  const noonNextDay = new Date(Date.UTC(w.year, w.month - 1, w.day + 1, 12));
  return startOfLocalDay(noonNextDay.getUTCFullYear(), noonNextDay.getUTCMonth() + 1, noonNextDay.getUTCDate(), tz);
}

/** Every bucket that overlaps [from, to), oldest first: the zero-filled skeleton of a series. */
export function bucketsBetween(from: Date, to: Date, interval: Interval, tz: string): Date[] {
  const result: Date[] = [];
  for (let b = bucketStart(from, interval, tz); b.getTime() < to.getTime(); b = nextBucket(b, interval, tz)) {
    result.push(b);
  }
  return result;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ISO 8601 with the zone's offset at that instant: `2026-03-29T00:00:00+01:00`. */
export function localIso(instant: Date, tz: string): string {
  const w = wallTime(instant, tz);
  const offsetMin = Math.round(offsetAt(instant, tz) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * Places hourly counts (UTC hours) into the buckets and fills the empty ones with zero.
 * `rows` are `{hour, metric, count}`; the result has one entry per bucket with every metric.
 */
export function fillSeries(
  buckets: Date[],
  interval: Interval,
  tz: string,
  metrics: readonly string[],
  rows: { hour: Date; metric: string; count: number }[],
): { start: string; values: Record<string, number> }[] {
  const index = new Map<number, Record<string, number>>();
  const series = buckets.map((b) => {
    const values = Object.fromEntries(metrics.map((m) => [m, 0]));
    index.set(b.getTime(), values);
    return { start: localIso(b, tz), values };
  });
  // each hour goes to the last bucket starting at or before it: a binary search, no time zone work per row
  const starts = buckets.map((b) => b.getTime());
  const last = starts.length > 0 ? nextBucket(buckets[buckets.length - 1]!, interval, tz).getTime() : 0;
  for (const r of rows) {
    const h = r.hour.getTime();
    if (starts.length === 0 || h < starts[0]! || h >= last) continue;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= h) lo = mid;
      else hi = mid - 1;
    }
    const values = index.get(starts[lo]!);
    if (values && r.metric in values) values[r.metric]! += r.count;
  }
  return series;
}
