import { DnsRecordChecker, type TxtResolver } from './dns-record-checker.js';
import { expectedRecords } from './dns-records.js';

const records = expectedRecords({
  domain: 'example.test',
  verificationToken: 't0k',
  dkimSelector: 'heraldsel',
  dkimPublicKey: 'KEY',
  spfRecord: 'v=spf1 a mx ~all',
});
const dnsError = (code: string) => Object.assign(new Error(`query failed: ${code}`), { code });

/** A resolver answering from a table: a name maps to TXT records or to the error code its lookup fails with. */
function resolver(zone: Record<string, string[][] | string>): TxtResolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    resolveTxt(name) {
      asked.push(name);
      const answer = zone[name] ?? 'ENOTFOUND';
      return typeof answer === 'string' ? Promise.reject(dnsError(answer)) : Promise.resolve(answer);
    },
  };
}

describe('DnsRecordChecker', () => {
  it('reports each record: found, wrong_value with the values found, missing for NXDOMAIN and for no data', async () => {
    const dns = resolver({
      '_herald.example.test': [['herald-verification=t0k']],
      'heraldsel._domainkey.example.test': [['v=DKIM1; k=rsa; p=OTHER']],
      'example.test': 'ENODATA',
    });
    expect(await new DnsRecordChecker(dns).check(records)).toEqual([
      { purpose: 'ownership', status: 'found', found: ['herald-verification=t0k'] },
      {
        purpose: 'dkim',
        status: 'wrong_value',
        found: ['v=DKIM1; k=rsa; p=OTHER'],
        problem: 'p= is not the public key Herald generated for this domain',
      },
      { purpose: 'spf', status: 'missing' },
      { purpose: 'dmarc', status: 'missing' },
    ]);
  });

  it('a timeout or SERVFAIL is lookup_failed, never missing', async () => {
    const dns = resolver({
      '_herald.example.test': 'ETIMEOUT',
      'heraldsel._domainkey.example.test': 'ESERVFAIL',
      'example.test': 'ECONNREFUSED',
      '_dmarc.example.test': 'EREFUSED',
    });
    const checks = await new DnsRecordChecker(dns).check(records);
    expect(checks.map((c) => [c.purpose, c.status, c.problem])).toEqual([
      ['ownership', 'lookup_failed', 'DNS lookup failed (ETIMEOUT)'],
      ['dkim', 'lookup_failed', 'DNS lookup failed (ESERVFAIL)'],
      ['spf', 'lookup_failed', 'DNS lookup failed (ECONNREFUSED)'],
      ['dmarc', 'lookup_failed', 'DNS lookup failed (EREFUSED)'],
    ]);
  });

  it('asks once per name', async () => {
    const dns = resolver({});
    await new DnsRecordChecker(dns).check([...records, { ...records[2]!, purpose: 'spf' }]);
    expect(dns.asked.sort()).toEqual([
      '_dmarc.example.test',
      '_herald.example.test',
      'example.test',
      'heraldsel._domainkey.example.test',
    ]);
  });
});
