import { DEFAULT_THRESHOLDS, judge, rates } from './reputation-rules.js';

const w = (sends: number, bounces: number, complaints: number) => rates({ sends, bounces, complaints });

describe('sender reputation verdict', () => {
  it('suspends past 0.3% complaints and 10% bounces, with enough volume', () => {
    expect(judge([w(1000, 0, 4)], DEFAULT_THRESHOLDS)).toMatchObject({ status: 'breach', reason: 'complaint_rate' });
    expect(judge([w(1000, 101, 0)], DEFAULT_THRESHOLDS)).toMatchObject({ status: 'breach', reason: 'bounce_rate' });
  });

  it('a rate exactly at the threshold does not pass it', () => {
    expect(judge([w(1000, 100, 3)], DEFAULT_THRESHOLDS).status).toBe('warning');
  });

  it('warns past 0.1% complaints or 5% bounces', () => {
    expect(judge([w(1000, 0, 2)], DEFAULT_THRESHOLDS)).toEqual({ status: 'warning', reason: 'complaint_rate' });
    expect(judge([w(1000, 51, 0)], DEFAULT_THRESHOLDS)).toEqual({ status: 'warning', reason: 'bounce_rate' });
    expect(judge([w(1000, 50, 1)], DEFAULT_THRESHOLDS)).toEqual({ status: 'ok' });
  });

  it('takes no action below the minimum volume, however bad the rates', () => {
    expect(judge([w(99, 99, 99)], DEFAULT_THRESHOLDS)).toEqual({ status: 'ok' });
  });

  it('any window can breach: a recent storm shows in the last 1,000 sends while 7 days dilute it', () => {
    const week = w(20_000, 300, 0);
    const last1000 = w(1000, 300, 0);
    expect(judge([week, last1000], DEFAULT_THRESHOLDS)).toMatchObject({ status: 'breach', window: last1000 });
  });

  it('complaints are judged before bounces', () => {
    expect(judge([w(1000, 500, 10)], DEFAULT_THRESHOLDS)).toMatchObject({ reason: 'complaint_rate' });
  });
});
