import { WebhooksServiceSettings } from '../webhooks.settings.js';
import { deliversWith, parseRetrySchedule, retryDelay, shortestSpanMs, verdictOf } from './retry-schedule.js';

const HOUR = 3_600_000;

describe('the retry schedule of webhook deliveries', () => {
  it('reads durations in ms, s, m and h', () => {
    expect(parseRetrySchedule('500ms, 5s,5m ,2h')).toEqual([500, 5000, 300_000, 2 * HOUR]);
    expect(() => parseRetrySchedule('5 minutes')).toThrow(/not a retry schedule/);
    expect(() => parseRetrySchedule('')).toThrow();
  });

  it('the default schedule retries for at least 24 hours even when every wait is jittered to its floor', () => {
    const schedule = parseRetrySchedule(new WebhooksServiceSettings().WEBHOOKS_RETRY_SCHEDULE);
    expect(shortestSpanMs(schedule)).toBeGreaterThanOrEqual(24 * HOUR);
    const floor = schedule.reduce((sum, _, i) => sum + retryDelay(schedule, i + 1, () => 0)!, 0);
    expect(floor).toBeGreaterThanOrEqual(24 * HOUR);
    expect(schedule[0]).toBe(5000);
  });

  it('each wait is jittered between half of its entry and all of it', () => {
    const schedule = [10_000, 60_000];
    expect(retryDelay(schedule, 1, () => 0)).toBe(5000);
    expect(retryDelay(schedule, 1, () => 0.999999)).toBe(10_000);
    expect(retryDelay(schedule, 2, () => 0.5)).toBe(45_000);
    expect(retryDelay(schedule, 3)).toBeUndefined();
  });

  it('a 2xx delivers; anything else is retried until the schedule is spent, then the delivery is dead', () => {
    const schedule = [1000, 2000];
    expect(verdictOf(true, 3, schedule)).toEqual({ status: 'delivered' });
    expect(verdictOf(false, 1, schedule, () => 0)).toEqual({ status: 'pending', retryInMs: 500 });
    expect(verdictOf(false, 2, schedule, () => 0)).toEqual({ status: 'pending', retryInMs: 1000 });
    expect(verdictOf(false, 3, schedule)).toEqual({ status: 'dead' });
    expect([200, 204, 299].every(deliversWith)).toBe(true);
    expect([0, 199, 301, 410, 500].some(deliversWith)).toBe(false);
  });
});
