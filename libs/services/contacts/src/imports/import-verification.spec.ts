import { ListVerification, type DomainDns } from '@herald/verification';
import { verifyRows, type ValidRow } from './import-verification.js';

const mail: DomainDns = {
  MX: { status: 'found', records: [{ priority: 10, exchange: 'mx.example.test' }] },
  A: { status: 'nodata' },
  AAAA: { status: 'nodata' },
  NS: { status: 'found', records: ['ns.example.test'] },
  SOA: { status: 'found', records: {} },
};
const nxdomain: DomainDns = {
  MX: { status: 'nxdomain' },
  A: { status: 'nxdomain' },
  AAAA: { status: 'nxdomain' },
  NS: { status: 'nxdomain' },
  SOA: { status: 'nxdomain' },
};
/** Every domain takes mail but nowhere.test, which does not exist. */
const list = () => new ListVerification(async (d) => (d === 'nowhere.test' ? nxdomain : mail), 4);

/** Rows numbered from 2 (the header is row 1). */
const rows = (...emails: string[]): ValidRow[] => emails.map((email, i) => ({ row: i + 2, email, data: {} }));
const batch = rows('ada@good.test', 'bob@nowhere.test', 'carol@mailinator.com', 'dan@gamil.com', 'info@good.test');

describe('verifyRows: each row of a verifying import gets its verdict', () => {
  it('without skipInvalid every row is imported and each verdict is a warning', async () => {
    const out = await verifyRows(batch, list(), false);
    expect(out.kept.map((r) => r.email)).toEqual(batch.map((r) => r.email));
    expect(out.errors).toEqual([]);
    expect(out.warnings).toEqual([
      { row: 3, email: 'bob@nowhere.test', reason: 'invalid_domain' },
      { row: 4, email: 'carol@mailinator.com', reason: 'disposable' },
      { row: 5, email: 'dan@gamil.com', reason: 'typo', suggestion: 'dan@gmail.com' },
      { row: 6, email: 'info@good.test', reason: 'role_address' },
    ]);
    expect(out.verdicts).toEqual({ checked: 5, invalid_domain: 1, disposable: 1, typo: 1, role_address: 1 });
  });

  it('with skipInvalid, invalid_domain and disposable rows are errors and left out; typo and role_address stay warnings', async () => {
    const out = await verifyRows(batch, list(), true);
    expect(out.kept.map((r) => r.email)).toEqual(['ada@good.test', 'dan@gamil.com', 'info@good.test']);
    expect(out.errors).toEqual([
      { row: 3, email: 'bob@nowhere.test', reason: 'invalid_domain' },
      { row: 4, email: 'carol@mailinator.com', reason: 'disposable' },
    ]);
    expect(out.warnings.map((w) => w.reason)).toEqual(['typo', 'role_address']);
    expect(out.verdicts).toEqual({ checked: 5, invalid_domain: 1, disposable: 1, typo: 1, role_address: 1 });
  });

  it('reports the address as the file wrote it, and counts a batch without verdicts as checked only', async () => {
    const out = await verifyRows(rows('Info@Good.TEST', 'ada@good.test'), list(), false);
    expect(out.warnings).toEqual([{ row: 2, email: 'Info@Good.TEST', reason: 'role_address' }]);
    expect((await verifyRows(rows('ada@good.test'), list(), true)).verdicts).toEqual({ checked: 1 });
  });
});
