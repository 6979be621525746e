import {
  createLogger,
  mergePositions,
  type Positions,
  type ProjectPositionsStore,
  type WrittenPositions,
} from '@herald/core';
import type { Redis } from 'ioredis';

/**
 * How long the edge keeps a project's positions after its last write. A copy that has not applied a
 * write after this long is broken, not behind (docs/consistency.md): its readers stop waiting for it.
 */
export const POSITIONS_TTL_SECONDS = 3600;

/** Keeps each producer's largest position of the hash: `redis.call` per field, then the expiry. */
const RECORD_SCRIPT = `
for i = 1, #ARGV - 1, 2 do
  local known = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0')
  if tonumber(ARGV[i + 1]) > known then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
redis.call('EXPIRE', KEYS[1], ARGV[#ARGV])
return 1`;

const keyOf = (projectId: string) => `herald:positions:${projectId}`;

const log = createLogger('positions');

/**
 * The projects' positions in Redis: every gateway replica sees the writes made through the others.
 * Each replica also keeps what went through it in memory, which answers alone while Redis does not
 * (as the rate limits fall back to memory): writes made through another replica meanwhile are not
 * waited for.
 */
export class RedisPositionsStore implements ProjectPositionsStore {
  private readonly local: MemoryPositionsStore;

  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds = POSITIONS_TTL_SECONDS,
  ) {
    this.local = new MemoryPositionsStore(ttlSeconds);
  }

  async get(projectId: string): Promise<Positions> {
    const local = await this.local.get(projectId);
    let hash: Record<string, string>;
    try {
      hash = await this.redis.hgetall(keyOf(projectId));
    } catch (err) {
      log.warn('Redis did not answer the project positions: this replica answers from its own', {
        err: String(err),
      });
      return local;
    }
    const out: Positions = {};
    for (const [service, id] of Object.entries(hash)) {
      const n = Number(id);
      if (Number.isSafeInteger(n) && n > 0) out[service] = n;
    }
    return mergePositions(out, local);
  }

  async record(written: WrittenPositions): Promise<void> {
    await this.local.record(written);
    try {
      await this.recordShared(written);
    } catch (err) {
      log.warn('Redis did not keep the project positions: only this replica knows them', { err: String(err) });
    }
  }

  private async recordShared(written: WrittenPositions): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const [projectId, positions] of written) {
      const args = Object.entries(positions).flatMap(([service, id]) => [service, String(id)]);
      if (args.length > 0) pipeline.eval(RECORD_SCRIPT, 1, keyOf(projectId), ...args, String(this.ttlSeconds));
    }
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([err]) => err);
    if (failed) throw failed[0] as Error;
  }
}

/** The projects' positions in this process (standalone: one process is the whole edge). */
export class MemoryPositionsStore implements ProjectPositionsStore {
  private readonly projects = new Map<string, { positions: Positions; until: number }>();

  constructor(
    private readonly ttlSeconds = POSITIONS_TTL_SECONDS,
    private readonly now: () => number = Date.now,
  ) {}

  get(projectId: string): Promise<Positions> {
    const kept = this.projects.get(projectId);
    return Promise.resolve(kept && kept.until > this.now() ? { ...kept.positions } : {});
  }

  record(written: WrittenPositions): Promise<void> {
    const until = this.now() + this.ttlSeconds * 1000;
    for (const [projectId, positions] of written) {
      const kept = this.projects.get(projectId);
      const merged = kept && kept.until > this.now() ? kept.positions : {};
      for (const [service, id] of Object.entries(positions)) if (!(id <= (merged[service] ?? 0))) merged[service] = id;
      // re-inserted: the map's order is the order of last writes, so the stale ones are first
      this.projects.delete(projectId);
      this.projects.set(projectId, { positions: merged, until });
    }
    this.forgetExpired();
    return Promise.resolve();
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [projectId, kept] of this.projects) {
      if (kept.until > now) break;
      this.projects.delete(projectId);
    }
  }
}
