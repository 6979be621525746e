import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { analyticsSchema } from '../analytics.module.js';
import { EventCountsStore } from './event-counts.store.js';

/**
 * Tracked event counts on PostgreSQL: per-name and per-day counts add to what is there (the last seen
 * time only moving forward), and the most tracked names come back most frequent first, ties by name,
 * over all time or over whole UTC days.
 */
describe('EventCountsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let m: EntityManager;
  const store = new EventCountsStore();

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(analyticsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    m = ds.manager;
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('per-name counts add up, the last seen time only moves forward; the top names most frequent first, ties by name', async () => {
    const p = 'prj_names';
    await store.addCounts(m, [
      { projectId: p, name: 'login', count: 2, lastSeenAt: '2026-06-01T10:00:00.000Z' },
      { projectId: p, name: 'purchase', count: 3, lastSeenAt: '2026-06-01T10:00:00.000Z' },
    ]);
    await store.addCounts(m, [
      { projectId: p, name: 'login', count: 1, lastSeenAt: '2026-05-01T10:00:00.000Z' },
      { projectId: p, name: 'signup', count: 3, lastSeenAt: '2026-06-02T10:00:00.000Z' },
      { projectId: 'prj_other', name: 'zzz', count: 9, lastSeenAt: '2026-06-02T10:00:00.000Z' },
    ]);
    const top = await store.top(m, p, 10);
    expect(top.map((r) => [r.name, Number(r.count), r.lastSeenAt.toISOString()])).toEqual([
      ['login', 3, '2026-06-01T10:00:00.000Z'],
      ['purchase', 3, '2026-06-01T10:00:00.000Z'],
      ['signup', 3, '2026-06-02T10:00:00.000Z'],
    ]);
    expect((await store.top(m, p, 1)).map((r) => r.name)).toEqual(['login']);
  });

  it('per-day counts add up; the top names over a span of days count those days only, both ends included', async () => {
    const p = 'prj_days';
    await store.addDays(m, [
      { projectId: p, day: '2026-06-01', name: 'login', count: 5 },
      { projectId: p, day: '2026-06-02', name: 'purchase', count: 2 },
      { projectId: p, day: '2026-06-03', name: 'purchase', count: 2 },
      { projectId: p, day: '2026-06-04', name: 'signup', count: 9 },
    ]);
    await store.addDays(m, [{ projectId: p, day: '2026-06-02', name: 'login', count: 1 }]);
    expect(await store.topInDays(m, p, '2026-06-02', '2026-06-03', 10)).toEqual([
      { name: 'purchase', n: '4' },
      { name: 'login', n: '1' },
    ]);
    expect(await store.topInDays(m, p, '2026-06-01', '2026-06-04', 2)).toEqual([
      { name: 'signup', n: '9' },
      { name: 'login', n: '6' },
    ]);
  });
});
