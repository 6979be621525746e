// EmailVerifier against real DNS traffic: the loopback DNS server of @herald/testing, and a UDP socket
// that swallows every query (a DNS server that never answers). Wired through VerifyModule, with the
// settings the module would read from DNS_SERVERS and VERIFY_TIMEOUT_MS.
import dgram from 'node:dgram';
import { loadConfig } from '@herald/core';
import { startDnsServer, type TestDnsServer } from '@herald/testing';
import { EmailVerifier, VERIFY_SETTINGS, VerifySettings } from '@herald/verification';
import { Test } from '@nestjs/testing';
import { VerifyModule } from './verify.module.js';

async function verifierFor(env: Record<string, string>): Promise<EmailVerifier> {
  const moduleRef = await Test.createTestingModule({ imports: [VerifyModule] })
    .overrideProvider(VERIFY_SETTINGS)
    .useValue(loadConfig(VerifySettings, env))
    .compile();
  return moduleRef.get(EmailVerifier);
}

describe('EmailVerifier against a DNS server', () => {
  let dns: TestDnsServer;
  let verifier: EmailVerifier;

  beforeAll(async () => {
    dns = await startDnsServer();
    // a budget no loaded machine reaches: these tests are about the answers (the deadline has its own test)
    verifier = await verifierFor({ DNS_SERVERS: dns.address, VERIFY_TIMEOUT_MS: '30000' });
  });

  beforeEach(() => dns.clear());

  afterAll(async () => {
    await dns.stop();
  });

  it('MX records: the domain exists, has MX records and the address is valid', async () => {
    dns.set('mx.test', 'MX', [{ priority: 10, exchange: 'mail.mx.test' }]);
    dns.set('mx.test', 'A', '192.0.2.10');
    const result = await verifier.verify('alice@mx.test');
    expect(result).toMatchObject({
      valid: true,
      domainExists: true,
      hasMxRecords: true,
      hasWebsite: true,
      reasons: [],
    });
    expect(dns.queries.map((q) => q.type).sort()).toEqual(['A', 'AAAA', 'MX', 'NS', 'SOA']);
  });

  it('null MX (RFC 7505): no MX records, not valid even with an A record, and says so', async () => {
    dns.set('nullmx.test', 'MX', { priority: 0, exchange: '.' });
    dns.set('nullmx.test', 'A', '192.0.2.10');
    const result = await verifier.verify('alice@nullmx.test');
    expect(result).toMatchObject({ valid: false, domainExists: true, hasMxRecords: false, hasWebsite: true });
    expect(result.reasons).toEqual(['nullmx.test publishes a null MX record (RFC 7505): it accepts no email.']);
  });

  it('A record only: no MX records, but valid through the implicit MX', async () => {
    dns.set('aonly.test', 'A', '192.0.2.20');
    const result = await verifier.verify('alice@aonly.test');
    expect(result).toMatchObject({ valid: true, domainExists: true, hasMxRecords: false, hasWebsite: true });
    expect(result.reasons).toEqual([
      'aonly.test has no MX records; mail is delivered to its A/AAAA address (implicit MX, RFC 5321).',
    ]);
  });

  it('a name with neither MX nor A/AAAA exists but cannot receive mail', async () => {
    dns.set('nsonly.test', 'NS', 'ns1.example.test');
    const result = await verifier.verify('alice@nsonly.test');
    expect(result).toMatchObject({ valid: false, domainExists: true, hasMxRecords: false, hasWebsite: false });
    expect(result.reasons).toContain('nsonly.test has no MX, A or AAAA records, so it cannot receive email.');
  });

  it('NXDOMAIN: the domain does not exist and the address is not valid', async () => {
    const result = await verifier.verify('alice@nowhere.test');
    expect(result).toMatchObject({ valid: false, domainExists: false, hasMxRecords: false, hasWebsite: false });
    expect(result.reasons).toEqual(['The domain nowhere.test does not exist (NXDOMAIN).']);
    expect(dns.queries.every((q) => q.rcode === 'NXDOMAIN')).toBe(true);
  });
});

describe('EmailVerifier against a DNS server that never answers', () => {
  let silent: dgram.Socket;
  let received = 0;

  beforeAll(async () => {
    silent = dgram.createSocket('udp4');
    silent.on('message', () => received++);
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('answers within the deadline, every DNS flag false, with a reason saying the lookups timed out', async () => {
    const verifier = await verifierFor({ DNS_SERVERS: `127.0.0.1:${silent.address().port}`, VERIFY_TIMEOUT_MS: '600' });
    // no clock: the reasons below name the 600 ms deadline, which only the verifier's own deadline writes
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => verifier.verify(`user${i}@slow.test`)));

    expect(received).toBeGreaterThan(0); // the queries did reach the silent server
    for (const result of results) {
      expect(result).toMatchObject({ valid: false, domainExists: false, hasMxRecords: false, hasWebsite: false });
      expect(result.reasons).toEqual([
        'The DNS lookup of MX, A, AAAA, NS, SOA records for slow.test timed out (deadline 600 ms); those results are unknown and count as false.',
        'Whether the domain slow.test exists is unknown: no DNS lookup completed.',
      ]);
    }
  });
});
