import { Resolver } from 'node:dns/promises';
import net from 'node:net';
import dnsPacket, { type DecodedPacket } from 'dns-packet';
import { splitTxtCharacterStrings, startDnsServer, type TestDnsServer } from './dns-server.js';

/** dns-packet decodes the response code too; its typings leave it out. */
type Response = DecodedPacket & { rcode: string };

/** Sends one query over TCP and returns the decoded response. */
async function tcpQuery(port: number, name: string, type: 'TXT' | 'A'): Promise<Response> {
  const socket = net.connect(port, '127.0.0.1');
  try {
    socket.write(dnsPacket.streamEncode({ type: 'query', id: 7, questions: [{ type, name }] }));
    let buffer = Buffer.alloc(0);
    for await (const chunk of socket) {
      buffer = Buffer.concat([buffer, chunk as Buffer]);
      if (buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0)) break;
    }
    return dnsPacket.decode(buffer.subarray(2)) as Response;
  } finally {
    socket.destroy();
  }
}

describe('test dns server', () => {
  let server: TestDnsServer;
  let resolver: Resolver;

  beforeAll(async () => {
    server = await startDnsServer();
  });

  beforeEach(() => {
    server.clear();
    resolver = new Resolver({ timeout: 2_000, tries: 1 });
    resolver.setServers([server.address]);
  });

  afterAll(async () => {
    await server.stop();
  });

  it('listens on loopback', () => {
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
  });

  it('resolves A, AAAA, MX, NS and CNAME records, names case-insensitively', async () => {
    server.set('Mail.Example.test', 'A', ['192.0.2.10', '192.0.2.11']);
    server.set('mail.example.test', 'AAAA', '2001:db8::10');
    server.set('example.test.', 'MX', [
      { priority: 10, exchange: 'mail.example.test' },
      { priority: 20, exchange: 'backup.example.test' },
    ]);
    server.set('example.test', 'NS', ['ns1.example.test', 'ns2.example.test']);
    server.set('www.example.test', 'CNAME', 'mail.example.test');

    expect((await resolver.resolve4('MAIL.example.TEST')).sort()).toEqual(['192.0.2.10', '192.0.2.11']);
    expect(await resolver.resolve6('mail.example.test')).toEqual(['2001:db8::10']);
    // Node 24 adds `type: 'MX'` to each record (Node 20 did not): compare the fields both return
    const mx = (await resolver.resolveMx('example.test')).map(({ priority, exchange }) => ({ priority, exchange }));
    expect(mx.sort((a, b) => a.priority - b.priority)).toEqual([
      { priority: 10, exchange: 'mail.example.test' },
      { priority: 20, exchange: 'backup.example.test' },
    ]);
    expect((await resolver.resolveNs('example.test')).sort()).toEqual(['ns1.example.test', 'ns2.example.test']);
    expect(await resolver.resolveCname('www.example.test')).toEqual(['mail.example.test']);
    // A lookups follow the CNAME inside the server
    expect((await resolver.resolve4('www.example.test')).sort()).toEqual(['192.0.2.10', '192.0.2.11']);
  });

  it('resolves TXT records, a 600-character value round-tripping intact', async () => {
    const long = Array.from({ length: 600 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz0123456789+/'[i % 38]).join('');
    server.set('example.test', 'TXT', ['v=spf1 include:_spf.herald.test -all', ['chunk-one ', 'chunk-two']]);
    server.set('sel._domainkey.example.test', 'TXT', `v=DKIM1; k=rsa; p=${long}`);

    const records = await resolver.resolveTxt('example.test');
    expect(records.map((chunks) => chunks.join('')).sort()).toEqual([
      'chunk-one chunk-two',
      'v=spf1 include:_spf.herald.test -all',
    ]);
    const [dkim] = await resolver.resolveTxt('sel._domainkey.example.test');
    expect(dkim!.length).toBe(3); // 619 bytes -> 255 + 255 + 109
    expect(dkim!.every((chunk) => Buffer.byteLength(chunk) <= 255)).toBe(true);
    expect(dkim!.join('')).toBe(`v=DKIM1; k=rsa; p=${long}`);
  });

  it('falls back to TCP for answers too large for UDP', async () => {
    const key = 'k'.repeat(3_000); // beyond the 1232-byte EDNS buffer of c-ares
    server.set('big.example.test', 'TXT', key);
    const [record] = await resolver.resolveTxt('big.example.test');
    expect(record!.join('')).toBe(key);
    const bigQueries = server.queries.filter((q) => q.name.toLowerCase() === 'big.example.test');
    expect(bigQueries.map((q) => `${q.transport}:${q.rcode}`)).toEqual(['udp:TRUNCATED', 'tcp:NOERROR']);

    // and a plain TCP client gets the whole answer too
    const response = await tcpQuery(server.port, 'big.example.test', 'TXT');
    expect(response.rcode).toBe('NOERROR');
    expect(Buffer.concat((response.answers![0] as { data: Buffer[] }).data).toString()).toBe(key);
  });

  it('answers NXDOMAIN for unknown names and NOERROR/no data for other types', async () => {
    server.set('example.test', 'A', '192.0.2.1');
    await expect(resolver.resolve4('missing.example.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolveTxt('example.test')).rejects.toMatchObject({ code: 'ENODATA' });
    const response = await tcpQuery(server.port, 'nothing.test', 'A');
    expect(response.rcode).toBe('NXDOMAIN');
    expect(response.flag_aa).toBe(true);
  });

  it('serves changes made with set() and remove() at once', async () => {
    server.set('_herald.example.test', 'TXT', 'token-1');
    expect(await resolver.resolveTxt('_herald.example.test')).toEqual([['token-1']]);
    server.set('_herald.example.test', 'TXT', 'token-2');
    expect(await resolver.resolveTxt('_herald.example.test')).toEqual([['token-2']]);
    server.remove('_herald.example.test', 'TXT');
    await expect(resolver.resolveTxt('_herald.example.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    server.set('_herald.example.test', 'TXT', 'token-3');
    expect(await resolver.resolveTxt('_herald.example.test')).toEqual([['token-3']]);
  });

  it('rejects invalid records when they are set', () => {
    expect(() => server.set('x.test', 'A', '2001:db8::1')).toThrow(/IPv4/);
    expect(() => server.set('x.test', 'AAAA', '192.0.2.1')).toThrow(/IPv6/);
    expect(() => server.set('x.test', 'CNAME', ['a.test', 'b.test'])).toThrow(/one CNAME/);
  });

  it('splits TXT values on UTF-8 character boundaries', () => {
    const value = 'é'.repeat(200); // 400 bytes, 2 per character
    const chunks = splitTxtCharacterStrings(value);
    expect(chunks.map((c) => c.length)).toEqual([254, 146]);
    expect(chunks.map((c) => c.toString('utf8')).join('')).toBe(value);
  });
});
