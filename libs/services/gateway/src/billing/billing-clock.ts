/** The time billing and reputation decide by: injected, so tests can move into the next period. */
export interface BillingClock {
  now(): Date;
}

export const BILLING_CLOCK = Symbol('BILLING_CLOCK');

export const systemClock: BillingClock = { now: () => new Date() };
