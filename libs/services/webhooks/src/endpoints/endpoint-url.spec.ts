import { OutboundAllowlist } from '@herald/http';
import { laneOf } from '../deliveries/lane-key.js';
import { endpointUrlProblems, type EndpointUrlPolicy } from './endpoint-url.js';

const policy = (over: Partial<EndpointUrlPolicy> = {}): EndpointUrlPolicy => ({
  allowHttp: false,
  allow: new OutboundAllowlist(undefined),
  resolve: async (host) =>
    ({ 'hooks.example.com': ['93.184.216.34'], 'internal.example.com': ['10.0.0.7'] })[host] ?? [],
  ...over,
});
const fields = async (url: string, p = policy()) => (await endpointUrlProblems(url, p)).map((e) => [e.field, e.code]);

describe('endpoint URLs', () => {
  it('accepts an https URL of a public host', async () => {
    expect(await fields('https://hooks.example.com/herald')).toEqual([]);
    expect(await fields('https://93.184.216.34:8443/x?y=1')).toEqual([]);
  });

  it('refuses http unless the operator allows it, other schemes, credentials and non-URLs', async () => {
    expect(await fields('http://hooks.example.com/')).toEqual([['url', 'invalid_string']]);
    expect(await fields('http://hooks.example.com/', policy({ allowHttp: true }))).toEqual([]);
    expect(await fields('ftp://hooks.example.com/', policy({ allowHttp: true }))).toEqual([['url', 'invalid_string']]);
    expect(await fields('https://user:pw@hooks.example.com/')).toEqual([['url', 'invalid_string']]);
    expect(await fields('hooks.example.com/x')).toEqual([['url', 'invalid_string']]);
    expect(await fields(`https://hooks.example.com/${'a'.repeat(2048)}`)).toEqual([['url', 'too_big']]);
  });

  it('refuses loopback, private, link-local and metadata targets by default, by address or by what a name resolves to', async () => {
    for (const url of [
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://169.254.169.254/latest/meta-data',
      'https://192.168.1.10/',
      'https://internal.example.com/',
    ])
      expect([url, await fields(url)]).toEqual([url, [['url', 'forbidden_target']]]);
    expect(await fields('https://localhost/', policy({ resolve: async () => ['127.0.0.1'] }))).toEqual([
      ['url', 'forbidden_target'],
    ]);
  });

  it("the operator's allowlist permits a refused target; a name that does not resolve yet is accepted", async () => {
    const allow = new OutboundAllowlist('localhost, 10.0.0.0/8');
    expect(
      await fields('http://localhost:8080/', policy({ allowHttp: true, allow, resolve: async () => ['127.0.0.1'] })),
    ).toEqual([]);
    expect(await fields('https://internal.example.com/', policy({ allow }))).toEqual([]);
    expect(await fields('https://127.0.0.1/', policy({ allow }))).toEqual([['url', 'forbidden_target']]);
    const failing = policy({ resolve: () => Promise.reject(new Error('ENOTFOUND')) });
    expect(await fields('https://not-yet.example.com/', failing)).toEqual([]);
  });
});

describe('delivery lanes', () => {
  it('a key always has the same lane, within the endpoint concurrency, and keys spread over the lanes', () => {
    expect(laneOf('contact-1', 4)).toBe(laneOf('contact-1', 4));
    const lanes = new Set(Array.from({ length: 200 }, (_, i) => laneOf(`contact-${i}`, 4)));
    expect([...lanes].sort()).toEqual([0, 1, 2, 3]);
    expect(laneOf('x', 1)).toBe(0);
  });
});
