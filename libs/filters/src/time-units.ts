import type { TimeUnit } from './model.js';

const MS: Record<Exclude<TimeUnit, 'months'>, number> = {
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 7 * 86_400_000,
};

function daysInMonth(year: number, month0: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month0 + 1, 0);
  return d.getUTCDate();
}

/**
 * The instant `amount` units before `now` (epoch ms). Days are 24 hours and weeks 7 days (UTC, no
 * daylight saving); months are calendar months in UTC, the day clamped to the target month's
 * length (31 March minus one month is 28 or 29 February, same time of day). Both evaluators take
 * their window bounds from here, so SQL never does interval arithmetic in a session time zone.
 */
export function unitsBefore(now: Date | number, amount: number, unit: TimeUnit): number {
  const t = typeof now === 'number' ? now : now.getTime();
  if (unit !== 'months') return t - amount * MS[unit];
  const d = new Date(t);
  const totalMonths = d.getUTCFullYear() * 12 + d.getUTCMonth() - amount;
  const year = Math.floor(totalMonths / 12);
  const month0 = totalMonths - year * 12;
  const out = new Date(t);
  out.setUTCFullYear(year, month0, Math.min(d.getUTCDate(), daysInMonth(year, month0)));
  return out.getTime();
}
