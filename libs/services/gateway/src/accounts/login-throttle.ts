import { ErrorCode, HeraldException } from '@herald/http';
import type { RateLimiter } from '../edge/rate-limiter.js';

/**
 * Failed logins are counted per account and per client address (15-minute windows); past the
 * limit the next attempt is refused with 429 before the password is even checked.
 */
export class LoginThrottle {
  constructor(
    private readonly perAccount: RateLimiter,
    private readonly perAddress: RateLimiter,
  ) {}

  async assertAllowed(email: string, address: string): Promise<void> {
    const [account, ip] = await Promise.all([this.perAccount.peek(email), this.perAddress.peek(address)]);
    for (const d of [account, ip]) {
      if (!d.allowed) {
        throw new HeraldException(429, ErrorCode.RateLimitExceeded, 'Too many failed login attempts; try again later', {
          headers: { 'retry-after': String(d.resetSeconds) },
          suggestion: `Wait ${d.resetSeconds} seconds, or reset your password.`,
        });
      }
    }
  }

  async recordFailure(email: string, address: string): Promise<void> {
    await Promise.all([this.perAccount.consume(email), this.perAddress.consume(address)]);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.perAccount.reset(email);
  }
}

export const LOGIN_THROTTLE = Symbol('LOGIN_THROTTLE');
