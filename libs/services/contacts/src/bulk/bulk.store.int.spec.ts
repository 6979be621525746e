import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { contactsSchema } from '../contacts.module.js';
import { BulkStore } from './bulk.store.js';

/** The SQL of bulk jobs, on PostgreSQL. */
describe('BulkStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new BulkStore();
  const project = 'prj_bulk_store';

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('queues a job over each contact once, readable by its project only', async () => {
    await ds.transaction((m) => store.create(m, 'blk_1', project, 'unsubscribe', ['cnt_a', 'cnt_b', 'cnt_a']));
    expect(await store.get(ds, 'blk_1')).toMatchObject({
      projectId: project,
      action: 'unsubscribe',
      contactIds: ['cnt_a', 'cnt_b'],
      status: 'queued',
      succeeded: 0,
      errors: [],
      completedAt: null,
    });
    expect(await store.find(ds, project, 'blk_1')).not.toBeNull();
    expect(await store.find(ds, 'prj_other', 'blk_1')).toBeNull();
  });

  it('completes a job with its counts and the contacts it could not apply', async () => {
    await ds.transaction((m) => store.create(m, 'blk_2', project, 'delete', ['cnt_a', 'cnt_b', 'cnt_c']));
    const errors = [{ contactId: 'cnt_c', reason: 'not_found' }];
    await ds.transaction((m) => store.complete(m, 'blk_2', { succeeded: 1, unchanged: 1, errors }));
    expect(await store.find(ds, project, 'blk_2')).toMatchObject({
      status: 'completed',
      succeeded: 1,
      unchanged: 1,
      failed: 1,
      errors,
      completedAt: expect.any(Date),
    });
  });
});
