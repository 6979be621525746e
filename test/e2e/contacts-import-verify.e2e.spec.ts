import { startDnsServer, startTopology, type TestDnsServer, type Topology } from '@herald/testing';
import { csv, fieldsOf, newProject, type ErrorBody, type TestProjectApi } from './contacts-helpers.js';

/**
 * List verification at import (`POST /contacts/import?verify=true`, docs/contacts.md) through the
 * public API, its DNS answered by the loopback DNS server (DNS_SERVERS): the verdicts, the counts and
 * the rows imported with and without `skipInvalid=true`, and the query's validation. Standalone
 * only: the contacts service checks the query, verifies and imports alone, the same in either mode;
 * an import through the gateway is proven in both modes by contacts.e2e, and streamed by
 * gateway-uploads.e2e (test/architecture/e2e-both-modes.spec.ts).
 */
describe('list verification at import (standalone)', () => {
  let herald: Topology;
  let dns: TestDnsServer;
  let api: TestProjectApi;

  /** Good, disposable, typo, role, a domain without MX or A, one that does not exist, and a bad address. */
  const file = csv(
    ['email', 'name'],
    ['ada@good.test', 'Ada'],
    ['carol@mailinator.com', 'Carol'],
    ['dan@gamil.com', 'Dan'],
    ['info@good.test', 'Info'],
    ['eve@nomx.test', 'Eve'],
    ['fay@nowhere.test', 'Fay'],
    ['not-an-email', 'Nobody'],
  );

  beforeAll(async () => {
    dns = await startDnsServer();
    for (const domain of ['good.test', 'mailinator.com', 'gamil.com'])
      dns.set(domain, 'MX', { priority: 10, exchange: `mx.${domain}` });
    dns.set('nomx.test', 'NS', 'ns1.nomx.test');
    herald = await startTopology({
      mode: 'standalone',
      env: { RATE_LIMIT_PER_MINUTE: '100000', DNS_SERVERS: dns.address, VERIFY_TIMEOUT_MS: '30000' },
    });
    api = await newProject(herald.url);
  }, 480_000); // migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await herald?.stop();
    await dns?.stop();
  }, 60_000);

  it('verify=true imports every valid row and reports each verdict as a warning; skipInvalid=true imports only the good rows', async () => {
    const all = await api.importAndWait(file, 'verify=true');
    expect(all).toMatchObject({ status: 'completed', totalRows: 7, imported: 6, skipped: 1 });
    expect(all.errors).toEqual([{ row: 8, email: 'not-an-email', reason: 'invalid_email' }]);
    expect(all.warnings).toEqual([
      { row: 3, email: 'carol@mailinator.com', reason: 'disposable' },
      { row: 4, email: 'dan@gamil.com', reason: 'typo', suggestion: 'dan@gmail.com' },
      { row: 5, email: 'info@good.test', reason: 'role_address' },
      { row: 6, email: 'eve@nomx.test', reason: 'invalid_domain' },
      { row: 7, email: 'fay@nowhere.test', reason: 'invalid_domain' },
    ]);
    expect(all.verification).toEqual({
      skipInvalid: false,
      checked: 6,
      passed: 1,
      counts: { invalid_domain: 2, disposable: 1, typo: 1, role_address: 1, unverified: 0 },
    });

    const other = await newProject(herald.url, api.cookie);
    const good = await other.importAndWait(file, 'verify=true&skipInvalid=true');
    expect(good).toMatchObject({ status: 'completed', imported: 3, skipped: 4 });
    expect(good.errors.map((e) => [e.row, e.reason])).toEqual([
      [3, 'disposable'],
      [6, 'invalid_domain'],
      [7, 'invalid_domain'],
      [8, 'invalid_email'],
    ]);
    expect(good.warnings!.map((w) => w.reason)).toEqual(['typo', 'role_address']);
    expect(good.verification).toMatchObject({ skipInvalid: true, checked: 6, passed: 1 });
    expect((await other.allContacts()).map((c) => c.email).sort()).toEqual([
      'ada@good.test',
      'dan@gamil.com',
      'info@good.test',
    ]);
  });

  it('refuses a flag that is not "true" or "false", and skipInvalid without verify, with 422 on the field', async () => {
    for (const [query, field] of [
      ['verify=yes', 'verify'],
      ['verify=true&skipInvalid=1', 'skipInvalid'],
      ['skipInvalid=true', 'skipInvalid'],
    ] as const) {
      const res = await api.importCsv(file, 'contacts.csv', query);
      expect([query, res.status, fieldsOf(res.body as ErrorBody)]).toEqual([query, 422, [field]]);
    }
  });
});
