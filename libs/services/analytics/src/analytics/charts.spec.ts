import type { DataSource, EntityManager } from 'typeorm';
import { Charts } from './charts.js';
import type { ChartsStore, HourlyCount } from './charts.store.js';

const m = {} as EntityManager;
const utc = (d: number, h = 0) => new Date(Date.UTC(2026, 5, d, h));

/** Charts over a store answering `hourly`; what it was asked. */
function chartsWith(hourly: HourlyCount[] = [], answers: { since?: number; types?: unknown[] } = {}) {
  const asked: unknown[][] = [];
  const store = {
    hourly: async (...args: unknown[]) => (asked.push(['hourly', ...args]), hourly),
    sinceMinute: async (...args: unknown[]) => (asked.push(['sinceMinute', ...args]), answers.since ?? 0),
    types: async () => answers.types ?? [],
  } as unknown as ChartsStore;
  return { charts: new Charts({ manager: m } as DataSource, store), asked };
}

describe('Charts: series, totals and counts over the chart store', () => {
  it('a day series asks for the days summed in the caller’s zone, from the first bucket’s start; every bucket is there, empty ones 0', async () => {
    const { charts, asked } = chartsWith([{ hour: utc(1, 22), type: 'metric.sent', count: '3' }]);
    const range = { from: utc(1, 12), to: utc(3, 12) };
    const s = await charts.timeseries('prj_1', {
      range,
      interval: 'day',
      tz: 'Europe/Berlin',
      metrics: ['sent', 'opened'],
    });
    expect(asked).toEqual([
      ['hourly', m, 'prj_1', utc(1, -2), range.to, ['metric.sent', 'email.opened'], 'Europe/Berlin'],
    ]);
    expect(s).toEqual({
      from: '2026-06-01T14:00:00+02:00',
      to: '2026-06-03T14:00:00+02:00',
      interval: 'day',
      tz: 'Europe/Berlin',
      buckets: [
        { start: '2026-06-01T00:00:00+02:00', sent: 0, opened: 0 },
        { start: '2026-06-02T00:00:00+02:00', sent: 3, opened: 0 },
        { start: '2026-06-03T00:00:00+02:00', sent: 0, opened: 0 },
      ],
    });
  });

  it('an hour series asks for the hours as stored (no zone); stats add each type’s totals over the range', async () => {
    const { charts, asked } = chartsWith([
      { hour: utc(1, 10), type: 'email.opened', count: '2' },
      { hour: utc(1, 11), type: 'email.opened', count: '5' },
    ]);
    const range = { from: utc(1, 10), to: utc(1, 12) };
    const s = await charts.stats('prj_1', {
      range,
      interval: 'hour',
      tz: 'UTC',
      types: ['email.opened', 'email.sent'],
    });
    expect(asked[0]).toEqual(['hourly', m, 'prj_1', utc(1, 10), range.to, ['email.opened', 'email.sent'], undefined]);
    expect(s.buckets.map((b) => [b['email.opened'], b['email.sent']])).toEqual([
      [2, 0],
      [5, 0],
    ]);
    expect(s.totals).toEqual({ 'email.opened': 7, 'email.sent': 0 });
  });

  it('recent count: the whole minutes of the last `minutes`, the current one included', async () => {
    const { charts, asked } = chartsWith([], { since: 9 });
    const now = new Date('2026-06-01T10:30:45.500Z');
    expect(await charts.recentCount('prj_1', 60, now)).toEqual({
      minutes: 60,
      since: '2026-06-01T09:31:00.000Z',
      count: 9,
    });
    expect(asked).toEqual([['sinceMinute', m, 'prj_1', new Date('2026-06-01T09:31:00.000Z')]]);
  });

  it('types: counts as numbers, last seen in ISO 8601', async () => {
    const { charts } = chartsWith([], { types: [{ type: 'email.sent', count: '12', last_seen_at: utc(1, 10) }] });
    expect(await charts.types('prj_1')).toEqual({
      types: [{ type: 'email.sent', count: 12, lastSeenAt: utc(1, 10).toISOString() }],
    });
  });
});
