import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  const top = () => 0.999_999;
  const bottom = () => 0;

  it('grows by its factor from the base and stops at the maximum (no jitter)', () => {
    const d = (a: number) => backoffDelay(a, { baseMs: 1000, maxMs: 60_000, jitter: 'none' });
    expect([1, 2, 3, 4, 7, 50].map(d)).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000]);
    expect(backoffDelay(3, { baseMs: 1000, maxMs: 600_000, factor: 4, jitter: 'none' })).toBe(16_000);
  });

  it('counts an attempt below 1 as the first and never overflows past the maximum', () => {
    expect(backoffDelay(0, { baseMs: 500, maxMs: 10_000, jitter: 'none' })).toBe(500);
    expect(backoffDelay(10_000, { baseMs: 500, maxMs: 10_000, jitter: 'none' })).toBe(10_000);
  });

  it('equal jitter (the default) waits between half and all of the exponential delay', () => {
    expect(backoffDelay(3, { baseMs: 1000, maxMs: 60_000, random: bottom })).toBe(2000);
    expect(backoffDelay(3, { baseMs: 1000, maxMs: 60_000, random: top })).toBe(4000);
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(4, { baseMs: 1000, maxMs: 60_000 });
      expect(d).toBeGreaterThanOrEqual(4000);
      expect(d).toBeLessThanOrEqual(8000);
    }
  });

  it('full jitter waits anywhere between nothing and the exponential delay', () => {
    expect(backoffDelay(3, { baseMs: 1000, maxMs: 60_000, jitter: 'full', random: bottom })).toBe(0);
    expect(backoffDelay(3, { baseMs: 1000, maxMs: 60_000, jitter: 'full', random: top })).toBe(4000);
  });

  it('spreads workers that failed together over the interval instead of one instant', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(6, { baseMs: 1000, maxMs: 60_000 })));
    expect(delays.size).toBeGreaterThan(10);
  });
});
