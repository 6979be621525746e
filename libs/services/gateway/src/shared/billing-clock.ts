/** The time billing and reputation decide by: injected, so tests can move into the next period. */
export interface BillingClock {
  now(): Date;
  /**
   * A real instant (an event's `occurredAt`, from a service's own clock) on this clock: usage and
   * reputation place an event where this clock would have been when it happened.
   */
  fromReal(real: Date): Date;
}

export const BILLING_CLOCK = Symbol('BILLING_CLOCK');

export const systemClock: BillingClock = { now: () => new Date(), fromReal: (real) => real };

/**
 * A clock that shows `start` when it is made and runs at real speed from there (`BILLING_CLOCK_START`,
 * for tests and rehearsals: docs/billing.md, "The billing clock"). Every real instant is moved by the
 * same offset, so an event lands in the period this clock showed when the event happened.
 */
export function startedClock(start: Date, realNow: () => number = Date.now): BillingClock {
  const offset = start.getTime() - realNow();
  return {
    now: () => new Date(realNow() + offset),
    fromReal: (real) => new Date(real.getTime() + offset),
  };
}
