import { Job } from '@herald/jobs';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { segmentsSchema } from '../segments.module.js';
import { BackfillJobsStore } from './backfill-jobs.store.js';

/** The backfill's jobs as the job queue keeps them, on PostgreSQL. */
describe('BackfillJobsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new BackfillJobsStore();

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(segmentsSchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
    const jobs = ds.getRepository(Job);
    await jobs.save([
      jobs.create({
        id: 'segbf_1',
        queue: 'segments.backfill',
        payload: { projectId: 'prj_a' },
        state: 'failed',
        lastError: 'boom',
      }),
      jobs.create({ id: 'segbf_2', queue: 'segments.sweep', payload: { projectId: 'prj_a' } }),
    ]);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it("answers a job's state and last error only for its queue and the project that started it", async () => {
    expect(await store.state(ds.manager, 'segments.backfill', 'prj_a', 'segbf_1')).toEqual({
      state: 'failed',
      last_error: 'boom',
    });
    expect(await store.state(ds.manager, 'segments.backfill', 'prj_b', 'segbf_1')).toBeUndefined();
    expect(await store.state(ds.manager, 'segments.backfill', 'prj_a', 'segbf_2')).toBeUndefined();
    expect(await store.state(ds.manager, 'segments.backfill', 'prj_a', 'segbf_unknown')).toBeUndefined();
  });
});
