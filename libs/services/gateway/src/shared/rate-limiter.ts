import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Fixed-window counters (rate-limiter-flexible): in Redis when REDIS_URL is set, so every gateway
 * replica shares them, in memory otherwise (standalone). If Redis stops answering, an in-memory
 * limiter takes over per replica rather than failing requests.
 */
export class RateLimiter {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    readonly points: number,
    durationSeconds: number,
    keyPrefix: string,
    redis?: Redis,
  ) {
    const memory = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix });
    this.limiter = redis
      ? new RateLimiterRedis({
          storeClient: redis,
          points,
          duration: durationSeconds,
          keyPrefix,
          insuranceLimiter: memory,
          rejectIfRedisNotReady: true,
        })
      : memory;
  }

  async consume(key: string, points = 1): Promise<RateDecision> {
    try {
      const res = await this.limiter.consume(key, points);
      return this.decision(res, true);
    } catch (rejected) {
      if (rejected instanceof RateLimiterRes) return this.decision(rejected, false);
      throw rejected;
    }
  }

  /** Gives back points taken by consume (a reservation that was not used). */
  async refund(key: string, points = 1): Promise<void> {
    await this.limiter.reward(key, points);
  }

  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }

  private decision(res: RateLimiterRes, allowed: boolean): RateDecision {
    return {
      allowed,
      limit: this.points,
      remaining: Math.max(0, res.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    };
  }
}

export function createRedis(url: string): Redis {
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
}
