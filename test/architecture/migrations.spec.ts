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

  it('leaves the wide columns no query filters on (outbox envelopes, email bodies) out of ANALYZE', async () => {
    const ds = await createServiceDataSource(allServices[0]!.schema, db.url, 1).initialize();
    try {
      const rows: { col: string; target: number }[] = await ds.query(
        `SELECT n.nspname || '.' || c.relname || '.' || a.attname AS col, a.attstattarget::int AS target
           FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE (c.relname = 'outbox' AND a.attname = 'envelope')
             OR (n.nspname = 'sending' AND c.relname = 'emails' AND a.attname IN ('html', 'text', 'headers', 'attachments'))
          ORDER BY 1`,
      );
      expect(rows.map((r) => r.col).sort()).toEqual(
        [
          ...allServices.map((s) => `${s.name}.outbox.envelope`),
          ...['attachments', 'headers', 'html', 'text'].map((c) => `sending.emails.${c}`),
        ].sort(),
      );
      expect(rows.filter((r) => r.target !== 0)).toEqual([]);
    } finally {
      await ds.destroy();
    }
  });
});
