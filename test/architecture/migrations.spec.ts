import { createServiceDataSource, migrateServiceSchema, pendingSchemaChanges } from '@herald/persistence';
import { allServices } from '@herald/service-catalog';
import { createTestDatabase, type TestDatabase } from '@herald/testing';

/**
 * The drift check: for every service, applying its committed migrations to an empty database
 * yields exactly the schema its entities describe. Fails when an entity changed without a
 * migration (`npm run migration:generate -- <service> <what-changes>` writes one).
 */
describe('entities and migrations agree', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it.each(allServices.map((s) => [s.name, s] as const))(
    'for the %s schema, and migrating twice is a no-op',
    async (_name, service) => {
      const ds = await createServiceDataSource(service.schema, db.url, 2).initialize();
      try {
        expect((await migrateServiceSchema(ds)).length).toBeGreaterThan(0);
        expect(await migrateServiceSchema(ds)).toEqual([]);
        const drift = await pendingSchemaChanges(ds);
        expect(drift.up).toEqual([]);
      } finally {
        await ds.destroy();
      }
    },
  );

  it('keeps every service in its own schema', async () => {
    const ds = await createServiceDataSource(allServices[0]!.schema, db.url, 1).initialize();
    try {
      const rows: { table_schema: string }[] = await ds.query(
        `SELECT DISTINCT table_schema FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
      );
      expect(rows.map((r) => r.table_schema)).toEqual(allServices.map((s) => s.name).sort());
    } finally {
      await ds.destroy();
    }
  });
});
