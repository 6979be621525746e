import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { contactsSchema } from '../contacts.module.js';
import { ImportsStore } from './imports.store.js';

/** The SQL of CSV imports: upload, checkpoint and counts, outcome; on PostgreSQL. */
describe('ImportsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new ImportsStore();
  let id = '';
  let n = 0;
  const project = 'prj_imports_store';

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
  });
  beforeEach(async () => {
    id = `imp_store_${++n}`;
    await ds.transaction((m) =>
      store.create(m, {
        id,
        projectId: project,
        file: Buffer.from('email\na@x.test\n'),
        fileName: 'a.csv',
        totalRows: 1,
        verify: false,
        skipInvalid: false,
      }),
    );
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const errors = (count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => ({ row: from + i + 2, email: 'bad', reason: 'invalid_email' }));

  it('a new import is queued with its file; its report leaves the file out, for its project only', async () => {
    expect(await store.get(ds, id)).toMatchObject({
      status: 'queued',
      fileName: 'a.csv',
      totalRows: 1,
      processedRows: 0,
    });
    expect((await store.get(ds, id))!.file!.toString()).toBe('email\na@x.test\n');
    const report = await store.report(ds, project, id);
    expect(report).toMatchObject({ id, status: 'queued', errors: [] });
    expect(report!.file).toBeUndefined();
    expect(await store.report(ds, 'prj_other', id)).toBeNull();
  });

  it('each batch moves the locked checkpoint and adds its counts and row errors, up to 1000 errors kept', async () => {
    await ds.transaction(async (m) => {
      expect(await store.lockCheckpoint(m, id)).toBe(0);
      await store.recordBatch(m, id, { rows: 1000, created: 600, updated: 399, errors: errors(1) });
    });
    await ds.transaction((m) =>
      store.recordBatch(m, id, { rows: 1000, created: 0, updated: 1, errors: errors(999, 1) }),
    );
    await ds.transaction((m) => store.recordBatch(m, id, { rows: 5, created: 0, updated: 0, errors: errors(5, 1000) }));
    await ds.transaction(async (m) => expect(await store.lockCheckpoint(m, id)).toBe(2005));
    const report = await store.report(ds, project, id);
    expect(report).toMatchObject({ processedRows: 2005, imported: 600, updated: 400, skipped: 1005 });
    expect(report!.errors).toHaveLength(1000);
    expect(await ds.transaction((m) => store.lockCheckpoint(m, 'imp_none'))).toBeUndefined();
  });

  it("a verifying import adds each batch's verdict counts and keeps up to 1000 warnings; its options are reported", async () => {
    const warnings = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ row: i + 2, email: 'info@x.test', reason: 'role_address' }));
    const verifying = `imp_store_verify_${n}`;
    await ds.transaction((m) =>
      store.create(m, {
        id: verifying,
        projectId: project,
        file: Buffer.from('email\n'),
        fileName: null,
        totalRows: 0,
        verify: true,
        skipInvalid: true,
      }),
    );
    await ds.transaction((m) =>
      store.recordBatch(m, verifying, {
        rows: 1000,
        created: 990,
        updated: 0,
        errors: errors(10),
        warnings: warnings(600),
        verdicts: { checked: 1000, invalid_domain: 7, disposable: 3, role_address: 600 },
      }),
    );
    await ds.transaction((m) =>
      store.recordBatch(m, verifying, {
        rows: 500,
        created: 500,
        updated: 0,
        errors: [],
        warnings: warnings(500),
        verdicts: { checked: 500, role_address: 499, typo: 1 },
      }),
    );
    await ds.transaction((m) => store.recordBatch(m, verifying, { rows: 1, created: 1, updated: 0, errors: [] }));
    const report = await store.report(ds, project, verifying);
    expect(report).toMatchObject({
      verify: true,
      skipInvalid: true,
      skipped: 10,
      verdictCounts: { checked: 1500, invalid_domain: 7, disposable: 3, role_address: 1099, typo: 1 },
    });
    expect(report!.warnings).toHaveLength(1100); // the batch that reached 1000 is added whole, then no more
    await ds.transaction((m) =>
      store.recordBatch(m, verifying, { rows: 1, created: 1, updated: 0, errors: [], warnings: warnings(1) }),
    );
    expect((await store.report(ds, project, verifying))!.warnings).toHaveLength(1100);
  });

  it('an import that does not verify keeps no verdicts', async () => {
    await ds.transaction((m) => store.recordBatch(m, id, { rows: 1, created: 1, updated: 0, errors: [] }));
    expect(await store.report(ds, project, id)).toMatchObject({ warnings: [], verdictCounts: {} });
  });

  it('completes or fails an import, and drops its file either way', async () => {
    await store.complete(ds, id);
    expect(await store.get(ds, id)).toMatchObject({ status: 'completed', file: null, completedAt: expect.any(Date) });
    await store.fail(ds, id, 'the file went away');
    expect(await store.get(ds, id)).toMatchObject({ status: 'failed', failure: 'the file went away', file: null });
  });
});
