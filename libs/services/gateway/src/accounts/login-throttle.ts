import type { DomainError } from '@herald/core';
import type { RateLimiter } from '../shared/rate-limiter.js';

/**
 * Attempts counted per account and per client address, reserved before the work they guard: the
 * counters are incremented atomically (Redis INCR, or the in-memory limiter) before the password
 * check or the email, so N concurrent attempts can never all pass a check made before any of them
 * was counted. Past either limit the attempt is refused (429 RATE_LIMIT_EXCEEDED with Retry-After)
 * and keeps nothing reserved on the other counter.
 */
export class AttemptThrottle {
  constructor(
    private readonly perAccount: RateLimiter,
    private readonly perAddress: RateLimiter,
    private readonly refusal: (retryAfterSeconds: number) => DomainError,
  ) {}

  /** Reserves one attempt on both counters, or throws the refusal. */
  async reserve(account: string, address: string): Promise<void> {
    const [a, b] = await Promise.all([this.perAccount.consume(account), this.perAddress.consume(address)]);
    if (a.allowed && b.allowed) return;
    await Promise.all([
      a.allowed ? this.perAccount.refund(account) : undefined,
      b.allowed ? this.perAddress.refund(address) : undefined,
    ]);
    throw this.refusal(Math.max(a.allowed ? 0 : a.resetSeconds, b.allowed ? 0 : b.resetSeconds));
  }

  /** After a successful login: the account's failures are forgotten, the address's reservation given back. */
  async release(account: string, address: string): Promise<void> {
    await Promise.all([this.perAccount.reset(account), this.perAddress.refund(address)]);
  }
}

/** Login attempts: 5 per account and 30 per address per 15 minutes; a success releases its reservation. */
export const LOGIN_THROTTLE = Symbol('LOGIN_THROTTLE');
/** Password-reset and verification email requests: 3 per account and 20 per address per hour. */
export const ACCOUNT_EMAIL_THROTTLE = Symbol('ACCOUNT_EMAIL_THROTTLE');

export const THROTTLE_LIMITS = {
  login: { perAccount: 5, perAddress: 30, windowSeconds: 15 * 60 },
  accountEmail: { perAccount: 3, perAddress: 20, windowSeconds: 3600 },
} as const;
