import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { workflowsSchema } from '../workflows.module.js';
import { SeenKeysStore } from './seen-keys.store.js';

/** The data keys seen per project and scope (GET /workflows/fields), on PostgreSQL. */
describe('SeenKeysStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new SeenKeysStore();

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(workflowsSchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('a key keeps the type it was first seen with, a repeat in one run too', async () => {
    await store.record(ds.manager, [
      { projectId: 'prj_a', scope: 'contact', key: 'plan', type: 'string' },
      { projectId: 'prj_a', scope: 'contact', key: 'plan', type: 'number' },
    ]);
    await store.record(ds.manager, [{ projectId: 'prj_a', scope: 'contact', key: 'plan', type: 'boolean' }]);
    expect(await store.list(ds.manager, 'prj_a')).toEqual([{ scope: 'contact', key: 'plan', type: 'string' }]);
  });

  it("lists a project's keys by scope then key, and no other project's", async () => {
    await store.record(ds.manager, [
      { projectId: 'prj_b', scope: 'event:signup', key: 'source', type: 'string' },
      { projectId: 'prj_b', scope: 'contact', key: 'tier', type: 'number' },
      { projectId: 'prj_b', scope: 'contact', key: 'age', type: 'number' },
      { projectId: 'prj_c', scope: 'contact', key: 'secret', type: 'string' },
    ]);
    await store.record(ds.manager, []);
    expect(await store.list(ds.manager, 'prj_b')).toEqual([
      { scope: 'contact', key: 'age', type: 'number' },
      { scope: 'contact', key: 'tier', type: 'number' },
      { scope: 'event:signup', key: 'source', type: 'string' },
    ]);
  });
});
