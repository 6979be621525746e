import type { MxRecord } from 'node:dns';
import {
  assessDomainDns,
  classifyDnsError,
  isNullMx,
  lookUpDomain,
  mailDeliverability,
  type DnsResolver,
  type DomainDns,
  type LookupOutcome,
} from './domain-dns.js';

const found = <T>(records: T): LookupOutcome<T> => ({ status: 'found', records });
const nodata = { status: 'nodata' } as const;
const nxdomain = { status: 'nxdomain' } as const;
const timeout = { status: 'timeout' } as const;
const mx = (...exchanges: string[]): LookupOutcome<MxRecord[]> =>
  found(exchanges.map((exchange, i) => ({ priority: 10 * (i + 1), exchange })));

/** Answers for a domain that has everything; override per test. */
const dns = (overrides: Partial<DomainDns> = {}): DomainDns => ({
  MX: mx('mx1.example.test'),
  A: found(['192.0.2.1']),
  AAAA: nodata,
  NS: found(['ns1.example.test']),
  SOA: found({}),
  ...overrides,
});

describe('classifyDnsError: what a failed lookup means', () => {
  it.each([
    ['ENODATA', 'nodata'],
    ['ENOTFOUND', 'nxdomain'],
    ['ETIMEOUT', 'timeout'],
    ['ECANCELLED', 'timeout'],
    ['ESERVFAIL', 'error'],
    ['ECONNREFUSED', 'error'],
  ])('%s → %s', (code, status) => {
    expect(classifyDnsError(Object.assign(new Error(code), { code })).status).toBe(status);
  });

  it('keeps the code of an unknown failure for the reason', () => {
    expect(classifyDnsError(Object.assign(new Error('x'), { code: 'EREFUSED' }))).toEqual({
      status: 'error',
      code: 'EREFUSED',
    });
    expect(classifyDnsError(new Error('no code'))).toEqual({ status: 'error', code: 'UNKNOWN' });
  });
});

describe('null MX (RFC 7505)', () => {
  it('is a single MX whose exchange is the root', () => {
    expect(isNullMx([{ priority: 0, exchange: '' }])).toBe(true);
    expect(isNullMx([{ priority: 0, exchange: '.' }])).toBe(true);
    expect(isNullMx([{ priority: 10, exchange: 'mx.example.test' }])).toBe(false);
    expect(
      isNullMx([
        { priority: 0, exchange: '' },
        { priority: 10, exchange: 'mx.example.test' },
      ]),
    ).toBe(false);
  });
});

describe('assessDomainDns', () => {
  it('MX records: the domain exists, has MX and accepts mail, without negative reasons', () => {
    expect(assessDomainDns('example.test', dns(), 3000)).toEqual({
      domainExists: true,
      hasMxRecords: true,
      hasWebsite: true,
      acceptsMail: true,
      reasons: [],
    });
  });

  it('hasWebsite is A or AAAA of the domain', () => {
    expect(assessDomainDns('example.test', dns({ A: nodata, AAAA: found(['2001:db8::1']) }), 3000).hasWebsite).toBe(
      true,
    );
    const none = assessDomainDns('example.test', dns({ A: nodata, AAAA: nodata }), 3000);
    expect(none.hasWebsite).toBe(false);
    expect(none.acceptsMail).toBe(true);
    expect(none.reasons).toEqual(['example.test has no A or AAAA records, so it has no website.']);
  });

  it('no MX but A/AAAA: accepts mail through the implicit MX (RFC 5321), hasMxRecords false', () => {
    const r = assessDomainDns('example.test', dns({ MX: nodata }), 3000);
    expect(r).toMatchObject({ domainExists: true, hasMxRecords: false, hasWebsite: true, acceptsMail: true });
    expect(r.reasons).toEqual([expect.stringContaining('implicit MX')]);
  });

  it('no MX, no A/AAAA: the domain exists but cannot receive mail', () => {
    const r = assessDomainDns('example.test', dns({ MX: nodata, A: nodata, AAAA: nodata }), 3000);
    expect(r).toMatchObject({ domainExists: true, hasMxRecords: false, hasWebsite: false, acceptsMail: false });
    expect(r.reasons).toContain('example.test has no MX, A or AAAA records, so it cannot receive email.');
  });

  it('null MX: no MX records and no mail, even with A records (no implicit MX)', () => {
    const r = assessDomainDns('example.test', dns({ MX: found([{ priority: 0, exchange: '' }]) }), 3000);
    expect(r).toMatchObject({ domainExists: true, hasMxRecords: false, hasWebsite: true, acceptsMail: false });
    expect(r.reasons).toEqual(['example.test publishes a null MX record (RFC 7505): it accepts no email.']);
  });

  it('NXDOMAIN: the domain does not exist, every flag false, one reason', () => {
    const r = assessDomainDns(
      'nowhere.test',
      { MX: nxdomain, A: nxdomain, AAAA: nxdomain, NS: nxdomain, SOA: nxdomain },
      3000,
    );
    expect(r).toEqual({
      domainExists: false,
      hasMxRecords: false,
      hasWebsite: false,
      acceptsMail: false,
      reasons: ['The domain nowhere.test does not exist (NXDOMAIN).'],
    });
  });

  it('a NODATA answer alone proves the name exists (RFC 2308)', () => {
    const r = assessDomainDns('example.test', { MX: nodata, A: nodata, AAAA: nodata, NS: nodata, SOA: nodata }, 3000);
    expect(r.domainExists).toBe(true);
  });

  it('every lookup timed out: all unknown, so false, with a reason naming the timeout', () => {
    const r = assessDomainDns('slow.test', { MX: timeout, A: timeout, AAAA: timeout, NS: timeout, SOA: timeout }, 3000);
    expect(r).toMatchObject({ domainExists: false, hasMxRecords: false, hasWebsite: false, acceptsMail: false });
    expect(r.reasons).toEqual([
      'The DNS lookup of MX, A, AAAA, NS, SOA records for slow.test timed out (deadline 3000 ms); those results are unknown and count as false.',
      'Whether the domain slow.test exists is unknown: no DNS lookup completed.',
    ]);
  });

  it('MX timed out while A answered: mail acceptance is unknown, so not accepted', () => {
    const r = assessDomainDns('example.test', dns({ MX: timeout }), 3000);
    expect(r).toMatchObject({ domainExists: true, hasMxRecords: false, hasWebsite: true, acceptsMail: false });
    expect(r.reasons).toEqual([
      expect.stringMatching(/MX records for example.test timed out/),
      'Whether example.test can receive email is unknown: its MX lookup did not complete.',
    ]);
  });

  it('a failed lookup is unknown and named with its code', () => {
    const r = assessDomainDns('example.test', dns({ A: { status: 'error', code: 'ESERVFAIL' }, AAAA: nodata }), 3000);
    expect(r.hasWebsite).toBe(false);
    expect(r.reasons).toEqual([
      'The DNS lookup of A records for example.test failed (ESERVFAIL); the result is unknown and counts as false.',
    ]);
  });
});

describe('lookUpDomain: parallel lookups under one deadline', () => {
  const never = () => new Promise<never>(() => {});
  type Lookups = { [K in Exclude<keyof DnsResolver, 'cancel'>]?: (name: string) => Promise<unknown> };
  const fake = (overrides: Lookups): DnsResolver & { cancelled: number } => {
    const resolver = {
      cancelled: 0,
      resolveMx: never,
      resolve4: never,
      resolve6: never,
      resolveNs: never,
      resolveSoa: never,
      cancel() {
        resolver.cancelled++;
      },
      ...overrides,
    };
    return resolver as unknown as DnsResolver & { cancelled: number };
  };

  it('returns at the deadline when servers never answer, keeping the answers that came, and cancels the rest', async () => {
    const resolver = fake({ resolve4: async () => ['192.0.2.1'] });
    // the fake never answers: without the deadline this call would never return (the test's timeout fails it)
    const result = await lookUpDomain(resolver, 'example.test', 200);
    expect(result).toEqual({ MX: timeout, A: found(['192.0.2.1']), AAAA: timeout, NS: timeout, SOA: timeout });
    expect(resolver.cancelled).toBe(1);
  });

  it('classifies each lookup on its own and does not wait for the deadline when all answered', async () => {
    const fail = (code: string) => () => Promise.reject(Object.assign(new Error(code), { code }));
    const resolver = fake({
      resolveMx: async () => [{ priority: 10, exchange: 'mx.example.test' }],
      resolve4: fail('ENODATA'),
      resolve6: async () => [],
      resolveNs: fail('ESERVFAIL'),
      resolveSoa: fail('ENOTFOUND'),
    });
    // an hour's deadline: had the lookup waited for it, the test's own timeout would fail it
    const result = await lookUpDomain(resolver, 'example.test', 3_600_000);
    expect(result).toEqual({
      MX: mx('mx.example.test'),
      A: nodata,
      AAAA: nodata,
      NS: { status: 'error', code: 'ESERVFAIL' },
      SOA: nxdomain,
    });
  });
});

describe('mailDeliverability: acceptsMail, with a definite "no" told from an unknown answer', () => {
  const error = { status: 'error', code: 'ESERVFAIL' } as const;
  const outcomes: Record<string, LookupOutcome<never>> = { nodata, nxdomain, timeout, error };
  const mxAnswers: LookupOutcome<MxRecord[]>[] = [mx('mx1.example.test'), found([{ priority: 0, exchange: '.' }])];
  const addresses: LookupOutcome<string[]>[] = [found(['192.0.2.1'])];
  const everyDns = (): DomainDns[] => {
    const out: DomainDns[] = [];
    for (const MX of [...mxAnswers, ...Object.values(outcomes)])
      for (const A of [...addresses, ...Object.values(outcomes)])
        for (const AAAA of [found(['2001:db8::1']), nodata, timeout, nxdomain])
          for (const NS of [found(['ns1.example.test']), nodata, nxdomain, timeout])
            out.push({ MX, A, AAAA, NS, SOA: NS.status === 'found' ? found({}) : NS });
    return out;
  };

  it('accepts exactly where assessDomainDns says acceptsMail, over every combination of answers', () => {
    for (const answers of everyDns())
      expect([answers, mailDeliverability(answers) === 'accepts']).toEqual([
        answers,
        assessDomainDns('example.test', answers, 3000).acceptsMail,
      ]);
  });

  it.each<[string, Partial<DomainDns>]>([
    ['NXDOMAIN', { MX: nxdomain, A: nxdomain, AAAA: nxdomain, NS: nxdomain, SOA: nxdomain }],
    [
      'NXDOMAIN on one type, the others timed out',
      { MX: nxdomain, A: timeout, AAAA: timeout, NS: timeout, SOA: timeout },
    ],
    ['a null MX, even with an A record', { MX: found([{ priority: 0, exchange: '' }]) }],
    ['neither MX nor A/AAAA', { MX: nodata, A: nodata, AAAA: nodata }],
  ])('refuses: %s', (_rule, answers) => {
    expect(mailDeliverability(dns(answers))).toBe('refuses');
  });

  it.each<[string, Partial<DomainDns>]>([
    ['no lookup completed', { MX: timeout, A: timeout, AAAA: timeout, NS: timeout, SOA: timeout }],
    ['the MX lookup failed, even with an A record', { MX: error }],
    ['no MX, and the A/AAAA lookups timed out', { MX: nodata, A: timeout, AAAA: nodata }],
  ])('unknown: %s', (_rule, answers) => {
    expect(mailDeliverability(dns(answers))).toBe('unknown');
  });

  it('accepts: MX hosts, or no MX but A/AAAA (implicit MX)', () => {
    expect(mailDeliverability(dns())).toBe('accepts');
    expect(mailDeliverability(dns({ MX: nodata, A: nodata, AAAA: found(['2001:db8::1']) }))).toBe('accepts');
  });
});
