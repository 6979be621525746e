import { startRedis } from '@herald/testing';
import { Redis } from 'ioredis';
import { MemoryPositionsStore, RedisPositionsStore } from './project-positions.store.js';

const written = (entries: [string, Record<string, number>][]) => new Map(entries);

describe('MemoryPositionsStore', () => {
  it("keeps each producer's largest position per project, and nothing of other projects", async () => {
    const store = new MemoryPositionsStore();
    await store.record(written([['prj_a', { contacts: 10, sending: 2 }]]));
    await store.record(
      written([
        ['prj_a', { contacts: 7, domains: 1 }],
        ['prj_b', { contacts: 99 }],
      ]),
    );
    expect(await store.get('prj_a')).toEqual({ contacts: 10, sending: 2, domains: 1 });
    expect(await store.get('prj_b')).toEqual({ contacts: 99 });
    expect(await store.get('prj_c')).toEqual({});
  });

  it('forgets a project an hour after its last write (a copy that far behind is broken, not behind)', async () => {
    let now = 1_000_000;
    const store = new MemoryPositionsStore(3600, () => now);
    await store.record(written([['prj_a', { contacts: 1 }]]));
    now += 3_599_000;
    await store.record(written([['prj_b', { contacts: 2 }]]));
    expect(await store.get('prj_a')).toEqual({ contacts: 1 });
    now += 2_000;
    expect(await store.get('prj_a')).toEqual({});
    expect(await store.get('prj_b')).toEqual({ contacts: 2 });
  });

  it('hands out a copy: changing an answer changes nothing kept', async () => {
    const store = new MemoryPositionsStore();
    await store.record(written([['prj_a', { contacts: 1 }]]));
    const got = await store.get('prj_a');
    got.contacts = 50;
    expect(await store.get('prj_a')).toEqual({ contacts: 1 });
  });
});

describe('RedisPositionsStore (real Redis)', () => {
  let redis: { url: string; stop(): Promise<void> };
  let client: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  }, 60_000);

  afterAll(async () => {
    await client?.quit();
    await redis?.stop();
  });

  it("keeps each producer's largest position per project, shared by every store on the same Redis, with an expiry", async () => {
    const one = new RedisPositionsStore(client, 60);
    const other = new RedisPositionsStore(client, 60);
    const project = `prj_${Date.now().toString(36)}`;
    await one.record(written([[project, { contacts: 10, sending: 2 }]]));
    await other.record(
      written([
        [project, { contacts: 7, domains: 1 }],
        [`${project}_b`, { contacts: 3 }],
      ]),
    );
    expect(await one.get(project)).toEqual({ contacts: 10, sending: 2, domains: 1 });
    expect(await other.get(`${project}_b`)).toEqual({ contacts: 3 });
    const ttl = await client.ttl(`herald:positions:${project}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('answers from what went through this replica while Redis does not answer', async () => {
    const down = new Redis('redis://127.0.0.1:9', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    down.on('error', () => undefined);
    const store = new RedisPositionsStore(down, 60);
    await store.record(written([['prj_down', { contacts: 4 }]]));
    expect(await store.get('prj_down')).toEqual({ contacts: 4 });
    down.disconnect();
  });

  it('concurrent records of one project never lose the largest position', async () => {
    const store = new RedisPositionsStore(client, 60);
    const project = `prj_race_${Date.now().toString(36)}`;
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.record(written([[project, { contacts: i + 1, sending: 50 - i }]]))),
    );
    expect(await store.get(project)).toEqual({ contacts: 50, sending: 50 });
  });
});
