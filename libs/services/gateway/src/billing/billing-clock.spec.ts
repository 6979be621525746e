import { startedClock, systemClock } from '../shared/billing-clock.js';
import { billingPeriod } from './billing-rules.js';

describe('billing clock', () => {
  it('a clock started at an instant shows it, runs at real speed, and moves event times by the same offset', () => {
    let real = Date.parse('2026-05-10T08:00:00Z');
    const clock = startedClock(new Date('2026-05-31T23:59:40Z'), () => real);
    expect(clock.now()).toEqual(new Date('2026-05-31T23:59:40Z'));
    expect(clock.fromReal(new Date('2026-05-10T08:00:05Z'))).toEqual(new Date('2026-05-31T23:59:45Z'));

    real += 30_000;
    expect(clock.now()).toEqual(new Date('2026-06-01T00:00:10Z'));
    // an event of before the turn still counts in May, one of after it in June
    expect(billingPeriod(clock.fromReal(new Date('2026-05-10T08:00:15Z'))).end).toEqual(
      new Date('2026-06-01T00:00:00Z'),
    );
    expect(billingPeriod(clock.fromReal(new Date('2026-05-10T08:00:25Z'))).start).toEqual(
      new Date('2026-06-01T00:00:00Z'),
    );
  });

  it('the real clock places an event at its own time', () => {
    const at = new Date('2026-05-10T08:00:00Z');
    expect(systemClock.fromReal(at)).toEqual(at);
  });
});
