import { loadConfig } from '@herald/core';
import type { JobContext, JobHandler, JobQueue } from '@herald/jobs';
import { Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, startDnsServer, type TestDatabase, type TestDnsServer } from '@herald/testing';
import { dnsResolverFactory, ListVerifier, VerifySettings } from '@herald/verification';
import type { DataSource } from 'typeorm';
import { ContactWriter } from '../contacts/contact-writer.js';
import { contactsSchema } from '../contacts.module.js';
import { CONTACTS } from '../consumer.js';
import { FieldRegistry } from '../fields/field-registry.js';
import { ContactImportsService, IMPORT_QUEUE, type ImportView } from './contact-imports.service.js';
import { CsvImportProcessor } from './csv-import.processor.js';
import { ImportsStore } from './imports.store.js';

/**
 * POST /contacts/import?verify=true's job on PostgreSQL, its DNS answered by the loopback DNS server
 * of @herald/testing: each row's verdict, the counts, which rows are imported with and without
 * skipInvalid, and each domain looked up once per import. The job queue only records the jobs; the
 * test runs each job to the end.
 */
describe('a verifying CSV import (PostgreSQL, loopback DNS)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let dns: TestDnsServer;
  let imports: ContactImportsService;
  let project: string;
  let n = 0;
  const queued: { id: string; payload: Record<string, unknown> }[] = [];
  const handlers = new Map<string, JobHandler>();
  const heldBack = {
    enqueue: async (_m: unknown, _queue: string, payload: Record<string, unknown>, options: { id: string }) => {
      queued.push({ id: options.id, payload });
      return options.id;
    },
    register: (queue: string, handler: JobHandler) => handlers.set(queue, handler),
  } as unknown as JobQueue;

  /** Uploads `csv`, runs its import job to the end and answers GET /contacts/import/:jobId. */
  const importCsv = async (csv: string, options = { verify: true, skipInvalid: false }): Promise<ImportView> => {
    const { jobId } = await imports.start(project, Buffer.from(csv), 'contacts.csv', options);
    await handlers.get(IMPORT_QUEUE)!({
      job: { id: jobId, payload: queued.find((j) => j.id === jobId)!.payload, attempts: 1, maxAttempts: 3 },
      signal: new AbortController().signal,
    } as unknown as JobContext);
    return imports.get(project, jobId);
  };
  const stored = async () =>
    (
      (await ds.query(`SELECT email FROM contacts.contacts WHERE project_id = $1 ORDER BY email`, [project])) as {
        email: string;
      }[]
    ).map((r) => r.email);

  /** One row of each kind: good, disposable, typo, role, a domain without MX or A, one that does not exist. */
  const CSV = [
    'email,name',
    'ada@good.test,Ada',
    'bob@good.test,Bob',
    'carol@mailinator.com,Carol',
    'dan@gamil.com,Dan',
    'info@good.test,Info',
    'eve@nomx.test,Eve',
    'fay@nowhere.test,Fay',
    'not-an-email,Nobody',
    '',
  ].join('\n');

  beforeAll(async () => {
    [db, dns] = await Promise.all([createTestDatabase(), startDnsServer()]);
    ds = await createServiceDataSource(contactsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    // a budget no loaded machine reaches: these tests are about the answers
    const settings = loadConfig(VerifySettings, { DNS_SERVERS: dns.address, VERIFY_TIMEOUT_MS: '30000' });
    const store = new ImportsStore();
    imports = new ContactImportsService(ds, heldBack, store);
    new CsvImportProcessor(
      ds,
      heldBack,
      new ContactWriter(new Outbox(CONTACTS, ds), new FieldRegistry(ds)),
      store,
      new ListVerifier(settings, dnsResolverFactory(settings)),
    ).onModuleInit();
  });
  beforeEach(() => {
    project = `prj_import_verify_${++n}`;
    dns.clear();
    for (const domain of ['good.test', 'mailinator.com', 'gamil.com'])
      dns.set(domain, 'MX', { priority: 10, exchange: `mx.${domain}` });
    dns.set('nomx.test', 'NS', 'ns1.nomx.test'); // the name exists, with neither MX nor A/AAAA
  });
  afterAll(async () => {
    await ds?.destroy();
    await Promise.all([db?.drop(), dns?.stop()]);
  });

  it('without skipInvalid every row with a valid address is imported, each verdict reported as a warning and counted', async () => {
    const job = await importCsv(CSV);
    expect(job).toMatchObject({ status: 'completed', totalRows: 8, imported: 7, updated: 0, skipped: 1 });
    expect(job.errors).toEqual([{ row: 9, email: 'not-an-email', reason: 'invalid_email' }]);
    expect(job.warnings).toEqual([
      { row: 4, email: 'carol@mailinator.com', reason: 'disposable' },
      { row: 5, email: 'dan@gamil.com', reason: 'typo', suggestion: 'dan@gmail.com' },
      { row: 6, email: 'info@good.test', reason: 'role_address' },
      { row: 7, email: 'eve@nomx.test', reason: 'invalid_domain' },
      { row: 8, email: 'fay@nowhere.test', reason: 'invalid_domain' },
    ]);
    expect(job.verification).toEqual({
      skipInvalid: false,
      checked: 7,
      passed: 2,
      counts: { invalid_domain: 2, disposable: 1, typo: 1, role_address: 1, unverified: 0 },
    });
    expect(await stored()).toHaveLength(7);
  });

  it('with skipInvalid only the good rows are imported: invalid_domain and disposable rows are skipped errors, typo and role_address warnings', async () => {
    const job = await importCsv(CSV, { verify: true, skipInvalid: true });
    expect(job).toMatchObject({ status: 'completed', totalRows: 8, imported: 4, updated: 0, skipped: 4 });
    expect(job.errors).toEqual([
      { row: 4, email: 'carol@mailinator.com', reason: 'disposable' },
      { row: 7, email: 'eve@nomx.test', reason: 'invalid_domain' },
      { row: 8, email: 'fay@nowhere.test', reason: 'invalid_domain' },
      { row: 9, email: 'not-an-email', reason: 'invalid_email' },
    ]);
    expect(job.warnings).toEqual([
      { row: 5, email: 'dan@gamil.com', reason: 'typo', suggestion: 'dan@gmail.com' },
      { row: 6, email: 'info@good.test', reason: 'role_address' },
    ]);
    expect(job.verification).toMatchObject({ skipInvalid: true, checked: 7, passed: 2 });
    expect(await stored()).toEqual(['ada@good.test', 'bob@good.test', 'dan@gamil.com', 'info@good.test']);
  });

  it("looks each domain's DNS up once for the whole import, across its batches of 1000 rows", async () => {
    const domains = ['good.test', 'mailinator.com', 'gamil.com', 'nomx.test', 'nowhere.test'];
    const rows = Array.from({ length: 2500 }, (_, i) => `user${i}@${domains[i % domains.length]}`);
    const job = await importCsv(['email', ...rows, ''].join('\n'));
    expect(job).toMatchObject({ status: 'completed', imported: 2500 });
    expect(job.verification!.counts).toEqual({
      invalid_domain: 1000,
      disposable: 500,
      typo: 500,
      role_address: 0,
      unverified: 0,
    });
    const mxQueries = dns.queries.filter((q) => q.type === 'MX').map((q) => q.name.toLowerCase());
    expect(mxQueries.sort()).toEqual([...domains].sort());
  });

  it('an import without verify asks no DNS and reports no verification', async () => {
    const job = await importCsv(CSV, { verify: false, skipInvalid: false });
    expect(job).toMatchObject({ status: 'completed', imported: 7, skipped: 1 });
    expect(job).not.toHaveProperty('verification');
    expect(job).not.toHaveProperty('warnings');
    expect(dns.queries).toEqual([]);
  });
});
