import { loadConfig } from '@herald/core';
import type { DnsResolver } from './domain-dns.js';
import { EmailVerifier } from './email-verifier.js';
import { VerifySettings } from './verify.settings.js';

type Zone = Record<string, { MX?: { priority: number; exchange: string }[]; A?: string[]; AAAA?: string[] }>;

/** An in-memory resolver: names in the zone answer (NODATA for missing types), others are NXDOMAIN. */
function zoneResolver(zone: Zone, asked: string[] = []): DnsResolver {
  const fail = (code: string) => Promise.reject(Object.assign(new Error(code), { code }));
  const lookup =
    (type: 'MX' | 'A' | 'AAAA' | 'NS' | 'SOA') =>
    (name: string): Promise<never> => {
      asked.push(`${type} ${name}`);
      const records = zone[name];
      if (!records) return fail('ENOTFOUND');
      const answer = type === 'MX' || type === 'A' || type === 'AAAA' ? records[type] : undefined;
      return answer ? (Promise.resolve(answer) as Promise<never>) : fail('ENODATA');
    };
  return {
    resolveMx: lookup('MX'),
    resolve4: lookup('A'),
    resolve6: lookup('AAAA'),
    resolveNs: lookup('NS'),
    resolveSoa: lookup('SOA'),
    cancel: () => {},
  } as unknown as DnsResolver;
}

const mailDomain = { MX: [{ priority: 10, exchange: 'mx.example.test' }], A: ['192.0.2.1'] };
const zone: Zone = {
  'company.test': mailDomain,
  'gmail.com': mailDomain,
  'googlemail.com': mailDomain,
  'mailinator.com': mailDomain,
  'gamil.com': mailDomain,
  'xn--bcher-kva.test': mailDomain,
};

function verifier(asked: string[] = []): EmailVerifier {
  return new EmailVerifier(loadConfig(VerifySettings, {}), () => zoneResolver(zone, asked));
}

describe('EmailVerifier', () => {
  it('a deliverable company address is valid and has no reasons', async () => {
    expect(await verifier().verify('  Alice@Company.TEST ')).toEqual({
      email: 'alice@company.test',
      valid: true,
      isDisposable: false,
      isAlias: false,
      isTypo: false,
      isPlusAddressed: false,
      isPersonalEmail: false,
      domainExists: true,
      hasWebsite: true,
      hasMxRecords: true,
      reasons: [],
    });
  });

  it('a syntactically invalid address is not valid, asks no DNS and says why', async () => {
    const asked: string[] = [];
    const result = await verifier(asked).verify('alice at company.test');
    expect(result).toMatchObject({
      valid: false,
      domainExists: false,
      hasMxRecords: false,
      hasWebsite: false,
      isTypo: false,
    });
    expect(result.reasons).toEqual(['The address is not a syntactically valid email address.']);
    expect(asked).toEqual([]);
  });

  it('an invalid address missing its TLD still gets a typo suggestion', async () => {
    const result = await verifier().verify('alice@gmail');
    expect(result).toMatchObject({ valid: false, isTypo: true });
    expect(result.reasons).toContain('Did you mean alice@gmail.com?');
  });

  it('a disposable domain is never valid, even with MX records', async () => {
    const result = await verifier().verify('bob@mailinator.com');
    expect(result).toMatchObject({ valid: false, isDisposable: true, isPersonalEmail: false, hasMxRecords: true });
    expect(result.reasons).toEqual(['mailinator.com is a disposable (temporary) email provider.']);
  });

  it('a free provider is personal and still valid', async () => {
    const result = await verifier().verify('bob@gmail.com');
    expect(result).toMatchObject({ valid: true, isPersonalEmail: true });
    expect(result.reasons).toEqual(['gmail.com is a free personal email provider, not a company domain.']);
  });

  it('a misspelt provider is a typo with a suggestion, and not counted as personal', async () => {
    const result = await verifier().verify('bob@gamil.com');
    expect(result).toMatchObject({ isTypo: true, isPersonalEmail: false, valid: true });
    expect(result.reasons).toEqual(['Did you mean bob@gmail.com?']);
  });

  it('plus-addressing and aliases are reported with the base and canonical addresses', async () => {
    const result = await verifier().verify('Al.ice+News@googlemail.com');
    expect(result).toMatchObject({
      email: 'al.ice+news@googlemail.com',
      isPlusAddressed: true,
      isAlias: true,
      isPersonalEmail: true,
      valid: true,
    });
    expect(result.reasons).toEqual([
      'The address uses plus-addressing (tag "news"); the base address is al.ice@googlemail.com.',
      'The address is an alias of the mailbox alice@gmail.com (googlemail.com is an alias domain of gmail.com; gmail.com ignores dots in the local part).',
      'googlemail.com is a free personal email provider, not a company domain.',
    ]);
  });

  it('an internationalised domain is looked up in punycode', async () => {
    const asked: string[] = [];
    const result = await verifier(asked).verify('anna@bücher.test');
    expect(result).toMatchObject({ email: 'anna@bücher.test', valid: true, hasMxRecords: true });
    expect(asked).toContain('MX xn--bcher-kva.test');
  });

  it('a domain that does not exist is not valid', async () => {
    const result = await verifier().verify('carol@nowhere.test');
    expect(result).toMatchObject({ valid: false, domainExists: false });
    expect(result.reasons).toEqual(['The domain nowhere.test does not exist (NXDOMAIN).']);
  });
});

describe('EmailVerifier on hostile input', () => {
  it('malformed Unicode and oversized strings are answered as invalid, not thrown', async () => {
    await expect(verifier().verify('\uD800a@gmial.com')).resolves.toMatchObject({ valid: false, isTypo: false });
    await expect(verifier().verify(`${'a'.repeat(5000)}@gmial.com`)).resolves.toMatchObject({
      valid: false,
      isTypo: false,
    });
  });
});
