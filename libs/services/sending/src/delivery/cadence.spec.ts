import { Cadence } from './cadence.js';

describe('Cadence: when a periodic chore is due', () => {
  const clockAt = (start: number) => {
    const clock = { now: start, read: () => clock.now };
    return clock;
  };

  it('is due the first time it is asked, whatever the clock says', () => {
    expect(new Cadence(5000, () => 0).due()).toBe(true);
  });

  it('is not due again until more than its period has passed since it last was', () => {
    const clock = clockAt(1_000_000);
    const cadence = new Cadence(5000, clock.read);
    expect(cadence.due()).toBe(true);
    clock.now += 4999;
    expect(cadence.due()).toBe(false);
    clock.now += 1; // exactly the period: not yet
    expect(cadence.due()).toBe(false);
    clock.now += 1;
    expect(cadence.due()).toBe(true);
    expect(cadence.due()).toBe(false);
  });

  it('counts from the time it said due, not from when it was last asked', () => {
    const clock = clockAt(0);
    const cadence = new Cadence(100, clock.read);
    expect(cadence.due()).toBe(true);
    for (let i = 0; i < 10; i++) {
      clock.now += 10;
      expect(cadence.due()).toBe(false);
    }
    clock.now += 1;
    expect(cadence.due()).toBe(true);
  });
});
