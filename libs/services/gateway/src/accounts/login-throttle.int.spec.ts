import { DomainError } from '@herald/core';
import { startRedis } from '@herald/testing';
import type { Redis } from 'ioredis';
import { createRedis, RateLimiter } from '../shared/rate-limiter.js';
import { AccountErrors } from './account.errors.js';
import { AttemptThrottle } from './login-throttle.js';

/** The reservation holds under concurrency with both stores: in memory (standalone) and in Redis (replicas). */
describe('AttemptThrottle', () => {
  let redisServer: { url: string; stop(): Promise<void> };
  let redis: Redis;
  let n = 0;

  beforeAll(async () => {
    redisServer = await startRedis();
    redis = createRedis(redisServer.url);
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  });

  afterAll(async () => {
    redis?.disconnect();
    await redisServer?.stop();
  });

  const throttle = (store: 'memory' | 'redis') => {
    const prefix = `test:${process.pid}:${++n}`;
    const client = store === 'redis' ? redis : undefined;
    return new AttemptThrottle(
      new RateLimiter(5, 900, `${prefix}:account`, client),
      new RateLimiter(30, 900, `${prefix}:address`, client),
      AccountErrors.loginThrottled,
    );
  };
  const outcome = (p: Promise<void>) =>
    p.then(
      () => 'reserved' as const,
      (e: unknown) => {
        if (e instanceof DomainError && e.kind === 'limited') return 'refused' as const;
        throw e;
      },
    );

  it.each(['memory', 'redis'] as const)(
    'reserves at most 5 of 100 concurrent attempts on one account (%s)',
    async (store) => {
      const t = throttle(store);
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, () => outcome(t.reserve('a@example.com', '192.0.2.1'))),
      );
      expect(outcomes.filter((o) => o === 'reserved')).toHaveLength(5);
    },
  );

  it.each(['memory', 'redis'] as const)(
    'a refused attempt keeps nothing on the other counter, and a release frees the account (%s)',
    async (store) => {
      const t = throttle(store);
      for (let i = 0; i < 5; i++) await t.reserve('b@example.com', '192.0.2.2');
      for (let i = 0; i < 30; i++) expect(await outcome(t.reserve('b@example.com', '192.0.2.2'))).toBe('refused');
      // the 30 refusals did not use the address's budget: another account from it still gets 25 attempts
      const others = await Promise.all(
        Array.from({ length: 25 }, (_, i) => outcome(t.reserve(`c${i}@example.com`, '192.0.2.2'))),
      );
      expect(others.every((o) => o === 'reserved')).toBe(true);
      await t.release('c0@example.com', '192.0.2.2');
      expect(await outcome(t.reserve('c0@example.com', '192.0.2.2'))).toBe('reserved');
    },
  );
});
