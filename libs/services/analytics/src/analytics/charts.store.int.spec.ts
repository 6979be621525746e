import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { analyticsSchema } from '../analytics.module.js';
import { ActivityStore } from '../projection/activity-store.js';
import { ChartsStore } from './charts.store.js';

/**
 * The charts' reads on PostgreSQL: hourly counts of the asked types in [from, to), or summed per local
 * day of a time zone (the day each UTC hour starts in, dated by its first hour); the minute counts
 * since a minute; the types seen, most frequent first.
 */
describe('ChartsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let m: EntityManager;
  const store = new ChartsStore();
  const writer = new ActivityStore();
  const hour = (h: number) => new Date(Date.UTC(2026, 5, 1, h));
  const p = 'prj_charts';

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(analyticsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    m = ds.manager;
    const add = (h: number, type: string, n: number, projectId = p) =>
      writer.addHourly(m, [{ projectId, hour: hour(h).toISOString(), type, n }]);
    await add(0, 'email.sent', 1); // 02:00 in Berlin, June 1
    await add(21, 'email.sent', 2); // 23:00 in Berlin, June 1
    await add(22, 'email.sent', 4); // 00:00 in Berlin, June 2
    await add(22, 'email.opened', 8);
    await add(23, 'email.clicked', 16);
    await add(26, 'email.sent', 32); // past the range
    await add(22, 'email.sent', 64, 'prj_other');
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const simple = (rows: { hour: Date; type: string; count: string }[]) =>
    rows
      .map((r) => ({ hour: r.hour.toISOString(), type: r.type, count: Number(r.count) }))
      .sort((a, b) => a.hour.localeCompare(b.hour) || a.type.localeCompare(b.type));

  it('hourly: each hour’s count of the asked types in [from, to), the project’s only', async () => {
    expect(simple(await store.hourly(m, p, hour(0), hour(26), ['email.sent', 'email.opened']))).toEqual([
      { hour: hour(0).toISOString(), type: 'email.sent', count: 1 },
      { hour: hour(21).toISOString(), type: 'email.sent', count: 2 },
      { hour: hour(22).toISOString(), type: 'email.opened', count: 8 },
      { hour: hour(22).toISOString(), type: 'email.sent', count: 4 },
    ]);
  });

  it('per local day: summed per day of the zone each UTC hour starts in, dated by the day’s first hour', async () => {
    expect(
      simple(await store.hourly(m, p, hour(0), hour(26), ['email.sent', 'email.clicked'], 'Europe/Berlin')),
    ).toEqual([
      { hour: hour(0).toISOString(), type: 'email.sent', count: 3 },
      { hour: hour(22).toISOString(), type: 'email.sent', count: 4 },
      { hour: hour(23).toISOString(), type: 'email.clicked', count: 16 },
    ]);
    expect(simple(await store.hourly(m, p, hour(0), hour(26), ['email.sent'], 'UTC'))).toEqual([
      { hour: hour(0).toISOString(), type: 'email.sent', count: 7 },
    ]);
  });

  it('the minute counts from a minute on, 0 when there are none', async () => {
    const minute = (n: number) => new Date(Date.UTC(2026, 5, 1, 12, n));
    await writer.addMinutely(m, [
      { projectId: p, minute: minute(0).toISOString(), n: 1 },
      { projectId: p, minute: minute(1).toISOString(), n: 2 },
      { projectId: p, minute: minute(2).toISOString(), n: 4 },
      { projectId: 'prj_other', minute: minute(2).toISOString(), n: 8 },
    ]);
    expect(await store.sinceMinute(m, p, minute(1))).toBe(6);
    expect(await store.sinceMinute(m, p, minute(3))).toBe(0);
  });

  it('the types seen, most frequent first, ties by type', async () => {
    const seen = (type: string, n: number) =>
      writer.addTypeCounts(m, [{ projectId: p, type, n, lastSeenAt: hour(n).toISOString() }]);
    await seen('email.sent', 3);
    await seen('email.opened', 5);
    await seen('email.clicked', 3);
    expect(await store.types(m, p)).toEqual([
      { type: 'email.opened', count: '5', last_seen_at: hour(5) },
      { type: 'email.clicked', count: '3', last_seen_at: hour(3) },
      { type: 'email.sent', count: '3', last_seen_at: hour(3) },
    ]);
  });
});
