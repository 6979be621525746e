import { bucketsBetween, bucketStart, fillSeries, isTimeZone, localIso, nextBucket } from './buckets.js';

const at = (iso: string) => new Date(iso);

describe('chart buckets in the caller time zone', () => {
  it('a day bucket runs from local midnight to local midnight', () => {
    expect(bucketStart(at('2026-06-10T21:30:00Z'), 'day', 'America/New_York').toISOString()).toBe(
      '2026-06-10T04:00:00.000Z',
    );
    expect(bucketStart(at('2026-06-10T22:30:00Z'), 'day', 'Europe/Berlin').toISOString()).toBe(
      '2026-06-10T22:00:00.000Z',
    );
  });

  it('the day daylight saving time starts has 23 hours, the day it ends 25 (Europe/Berlin)', () => {
    const spring = at('2026-03-29T00:00:00+01:00');
    expect(nextBucket(spring, 'day', 'Europe/Berlin').getTime() - spring.getTime()).toBe(23 * 3_600_000);
    const autumn = at('2026-10-25T00:00:00+02:00');
    expect(nextBucket(autumn, 'day', 'Europe/Berlin').getTime() - autumn.getTime()).toBe(25 * 3_600_000);
  });

  it('a week across the spring change has 7 day buckets, each starting at local midnight', () => {
    const days = bucketsBetween(at('2026-03-06T05:00:00Z'), at('2026-03-13T04:00:00Z'), 'day', 'America/New_York');
    expect(days.map((d) => localIso(d, 'America/New_York'))).toEqual([
      '2026-03-06T00:00:00-05:00',
      '2026-03-07T00:00:00-05:00',
      '2026-03-08T00:00:00-05:00',
      '2026-03-09T00:00:00-04:00',
      '2026-03-10T00:00:00-04:00',
      '2026-03-11T00:00:00-04:00',
      '2026-03-12T00:00:00-04:00',
    ]);
  });

  it('hour buckets across the autumn change keep both 01:00 hours apart', () => {
    const hours = bucketsBetween(at('2026-11-01T04:00:00Z'), at('2026-11-01T08:00:00Z'), 'hour', 'America/New_York');
    expect(hours.map((h) => localIso(h, 'America/New_York'))).toEqual([
      '2026-11-01T00:00:00-04:00',
      '2026-11-01T01:00:00-04:00',
      '2026-11-01T01:00:00-05:00',
      '2026-11-01T02:00:00-05:00',
    ]);
  });

  it('a zone whose midnight is skipped starts that day when the gap ends (America/Santiago)', () => {
    // Chile moves from -04 to -03 at 24:00 on the first Saturday of September
    const start = bucketStart(at('2026-09-06T12:00:00Z'), 'day', 'America/Santiago');
    expect(localIso(start, 'America/Santiago')).toBe('2026-09-06T01:00:00-03:00');
  });

  it('empty buckets are filled with zero and each UTC hour lands in the local day it starts in', () => {
    const tz = 'Europe/Berlin';
    const buckets = bucketsBetween(at('2026-03-28T00:00:00+01:00'), at('2026-03-31T00:00:00+02:00'), 'day', tz);
    const series = fillSeries(
      buckets,
      'day',
      tz,
      ['sent', 'opened'],
      [
        { hour: at('2026-03-28T22:00:00Z'), metric: 'sent', count: 3 }, // 2026-03-28 23:00 +01:00
        { hour: at('2026-03-28T23:00:00Z'), metric: 'sent', count: 4 }, // 2026-03-29 00:00 +01:00
        { hour: at('2026-03-29T22:00:00Z'), metric: 'opened', count: 1 }, // 2026-03-30 00:00 +02:00
      ],
    );
    expect(series).toEqual([
      { start: '2026-03-28T00:00:00+01:00', values: { sent: 3, opened: 0 } },
      { start: '2026-03-29T00:00:00+01:00', values: { sent: 4, opened: 0 } },
      { start: '2026-03-30T00:00:00+02:00', values: { sent: 0, opened: 1 } },
    ]);
  });

  it('knows IANA zone names and refuses others', () => {
    expect(isTimeZone('Asia/Kolkata')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
