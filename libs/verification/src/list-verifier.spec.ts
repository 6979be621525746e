import type { MxRecord } from 'node:dns';
import { suggestCorrection } from './address-checks.js';
import type { DomainDns, LookupOutcome } from './domain-dns.js';
import { ListVerification } from './list-verifier.js';

const found = <T>(records: T): LookupOutcome<T> => ({ status: 'found', records });
const nodata = { status: 'nodata' } as const;
const nxdomain = { status: 'nxdomain' } as const;
const timeout = { status: 'timeout' } as const;
const mailDomain: DomainDns = {
  MX: found<MxRecord[]>([{ priority: 10, exchange: 'mx.example.test' }]),
  A: found(['192.0.2.1']),
  AAAA: nodata,
  NS: found(['ns1.example.test']),
  SOA: found({}),
};
const missing: DomainDns = { MX: nxdomain, A: nxdomain, AAAA: nxdomain, NS: nxdomain, SOA: nxdomain };
const silent: DomainDns = { MX: timeout, A: timeout, AAAA: timeout, NS: timeout, SOA: timeout };

/** A lookup answering from `zone` (mail domain by default), recording what was asked and how many ran at once. */
function zoneLookup(zone: Record<string, DomainDns> = {}) {
  const asked: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const lookup = async (asciiDomain: string): Promise<DomainDns> => {
    asked.push(asciiDomain);
    peak = Math.max(peak, ++inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    inFlight--;
    return zone[asciiDomain] ?? mailDomain;
  };
  return { lookup, asked, peak: () => peak };
}

async function verdicts(emails: string[], zone: Record<string, DomainDns> = {}) {
  const list = new ListVerification(zoneLookup(zone).lookup, 4);
  await list.learn(emails);
  return emails.map((email) => [email, list.verdictOf(email)]);
}

describe('ListVerification: the /v1/verify checks over a list, one verdict per address', () => {
  it('reports each kind of address with its verdict, and nothing for a good one', async () => {
    expect(
      await verdicts(
        [
          'ada@company.test',
          'ada@nowhere.test',
          'ada@mailinator.com',
          'ada@gamil.com',
          'info@company.test',
          'ada@slow.test',
        ],
        { 'nowhere.test': missing, 'slow.test': silent },
      ),
    ).toEqual([
      ['ada@company.test', undefined],
      ['ada@nowhere.test', { verdict: 'invalid_domain' }],
      ['ada@mailinator.com', { verdict: 'disposable' }],
      ['ada@gamil.com', { verdict: 'typo', suggestion: 'ada@gmail.com' }],
      ['info@company.test', { verdict: 'role_address' }],
      ['ada@slow.test', { verdict: 'unverified' }],
    ]);
  });

  it('checks the address as /v1/verify does: trimmed and lower-cased', async () => {
    expect(await verdicts([' Ada@GAMIL.com '])).toEqual([
      [' Ada@GAMIL.com ', { verdict: 'typo', suggestion: 'ada@gmail.com' }],
    ]);
  });

  it("looks each domain's DNS up once for the whole list, whichever batch it appears in", async () => {
    const { lookup, asked } = zoneLookup();
    const list = new ListVerification(lookup, 4);
    await list.learn(['a@one.test', 'b@one.test', 'c@two.test']);
    await list.learn(['d@two.test', 'e@three.test', 'f@ONE.test']);
    expect(asked.sort()).toEqual(['one.test', 'three.test', 'two.test']);
    expect(list.domainsLookedUp).toBe(3);
  });

  it('looks an internationalised domain up in punycode, once for both spellings', async () => {
    const { lookup, asked } = zoneLookup();
    const list = new ListVerification(lookup, 4);
    await list.learn(['anna@bücher.test', 'ben@xn--bcher-kva.test']);
    expect(asked).toEqual(['xn--bcher-kva.test']);
  });

  it('has at most `concurrency` lookups in flight', async () => {
    const { lookup, asked, peak } = zoneLookup();
    const list = new ListVerification(lookup, 3);
    await list.learn(Array.from({ length: 20 }, (_, i) => `user@domain${i}.test`));
    expect(asked).toHaveLength(20);
    expect(peak()).toBe(3);
  });

  it('starts no further lookup once its signal aborts (the import job lost its lease)', async () => {
    const job = new AbortController();
    const asked: string[] = [];
    const list = new ListVerification(async (domain) => {
      asked.push(domain);
      if (asked.length === 2) job.abort(new Error('lease lost'));
      await new Promise((resolve) => setImmediate(resolve));
      return mailDomain;
    }, 1);
    const emails = Array.from({ length: 10 }, (_, i) => `user@domain${i}.test`);
    await expect(list.learn(emails, job.signal)).rejects.toThrow('lease lost');
    expect(asked).toEqual(['domain0.test', 'domain1.test']);
  });

  it('an address whose domain was not learnt is a programming error, not a verdict', async () => {
    const list = new ListVerification(zoneLookup().lookup, 4);
    expect(() => list.verdictOf('ada@unseen.test')).toThrow(/not learnt/);
  });

  it("suggests what /v1/verify's suggestCorrection suggests for the whole address (worked out once per domain)", async () => {
    const emails = [
      'bob@gmial.com',
      'bob@gamil.com',
      'bob@hotmial.com',
      'bob@gmail.con',
      'bob@yaho.com',
      'bob@outlok.com',
      'bob.smith+tag@gmai.com',
      'bob@gmail.com',
      'bob@mac.com',
      'bob@gmx.net',
      'bob@acme.cm',
      'bob@yahoo.com.mx',
      'bob@dog.com',
      'bob@company.test',
    ];
    const list = new ListVerification(zoneLookup().lookup, 4);
    await list.learn(emails);
    expect(emails.map((e) => [e, list.verdictOf(e)?.suggestion])).toEqual(emails.map((e) => [e, suggestCorrection(e)]));
  });
});
