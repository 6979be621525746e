import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { segmentsSchema } from '../segments.module.js';
import { SweepStateStore } from './sweep-state.store.js';

/** The sweep chain's position on PostgreSQL. */
describe('SweepStateStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new SweepStateStore();

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(segmentsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('has no link before the chain starts; its first link is 1 and each advance the next', async () => {
    expect(await store.current(ds.manager)).toBeUndefined();
    expect(await ds.transaction((m) => store.lock(m))).toBeUndefined();
    expect(await ds.transaction((m) => store.advance(m))).toBe(1);
    expect(await ds.transaction((m) => store.advance(m))).toBe(2);
    expect([await store.current(ds.manager), await ds.transaction((m) => store.lock(m))]).toEqual([2, 2]);
  });

  it('a link holding the lock makes another wait for it, and the other then sees its advance', async () => {
    const [first, second] = [ds.createQueryRunner(), ds.createQueryRunner()];
    try {
      for (const r of [first, second]) await r.connect();
      await first.startTransaction();
      const seq = await store.lock(first.manager);
      await second.startTransaction();
      await second.query(`SET LOCAL lock_timeout = '200ms'`);
      await expect(store.lock(second.manager)).rejects.toMatchObject({ driverError: { code: '55P03' } });
      await second.rollbackTransaction();
      await store.advance(first.manager);
      await first.commitTransaction();
      expect(await ds.transaction((m) => store.lock(m))).toBe(seq! + 1);
    } finally {
      for (const r of [first, second]) {
        if (r.isTransactionActive) await r.rollbackTransaction();
        await r.release();
      }
    }
  });
});
