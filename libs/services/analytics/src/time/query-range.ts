import { invalidInput } from '@herald/core';
import { isTimeZone, type Interval } from './buckets.js';

const DAY_MS = 86_400_000;

/** The longest range one chart query may span, per interval (docs/analytics.md). */
export const MAX_RANGE_DAYS: Record<Interval, number> = { hour: 31, day: 400 };
/** The range a chart query covers when it names none: the last 30 days (hour: the last 2 days). */
export const DEFAULT_RANGE_DAYS: Record<Interval, number> = { hour: 2, day: 30 };

export interface TimeRange {
  from: Date;
  to: Date;
}

/** `from`/`to` of a feed query: optional, and `from` may not be after `to`. */
export function feedRange(from: string | undefined, to: string | undefined): Partial<TimeRange> {
  const range = { ...(from ? { from: new Date(from) } : {}), ...(to ? { to: new Date(to) } : {}) };
  if (range.from && range.to && range.from.getTime() > range.to.getTime())
    throw invalidInput([{ field: 'from', message: 'from must not be after to', code: 'invalid_range' }]);
  return range;
}

/**
 * `from`/`to` of a chart query: defaults to the last DEFAULT_RANGE_DAYS up to now, `from` may not be
 * after `to`, and the span may not exceed MAX_RANGE_DAYS of the interval.
 */
export function chartRange(
  from: string | undefined,
  to: string | undefined,
  interval: Interval,
  now = new Date(),
): TimeRange {
  const end = to ? new Date(to) : now;
  const start = from ? new Date(from) : new Date(end.getTime() - DEFAULT_RANGE_DAYS[interval] * DAY_MS);
  if (start.getTime() > end.getTime())
    throw invalidInput([{ field: 'from', message: 'from must not be after to', code: 'invalid_range' }]);
  if (end.getTime() - start.getTime() > MAX_RANGE_DAYS[interval] * DAY_MS)
    throw invalidInput([
      {
        field: 'from',
        message: `the range may span at most ${MAX_RANGE_DAYS[interval]} days with interval=${interval}`,
        code: 'range_too_long',
      },
    ]);
  return { from: start, to: end };
}

/** The caller's time zone: an IANA name the runtime knows, in its canonical spelling (PostgreSQL reads it too). */
export function checkTimeZone(tz: string): string {
  if (isTimeZone(tz)) return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  throw invalidInput([
    { field: 'tz', message: 'tz must be an IANA time zone such as Europe/Berlin', code: 'invalid_string' },
  ]);
}
