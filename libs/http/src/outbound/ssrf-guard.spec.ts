import { classifyTarget, isPublicAddress, OutboundAllowlist } from './ssrf-guard.js';

describe('outbound SSRF classification', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd00:ec2::254',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
  ])('refuses the non-public address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );

  it('the operator allowlist permits CIDRs, addresses and host names', () => {
    const allow = new OutboundAllowlist('127.0.0.0/8, 10.0.0.5, hooks.internal');
    expect(classifyTarget('localhost', '127.0.0.1', allow).ok).toBe(true);
    expect(classifyTarget('x', '10.0.0.5', allow).ok).toBe(true);
    expect(classifyTarget('x', '10.0.0.6', allow).ok).toBe(false);
    expect(classifyTarget('HOOKS.internal', '192.168.0.9', allow).ok).toBe(true);
    expect(classifyTarget('metadata', '169.254.169.254', new OutboundAllowlist(undefined))).toMatchObject({
      ok: false,
    });
  });
});
