import { classifyTarget, isPublicAddress, WebhookAllowlist } from './ssrf-guard.js';

describe('webhook SSRF classification', () => {
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
    const allow = new WebhookAllowlist('127.0.0.0/8, 10.0.0.5, hooks.internal');
    expect(classifyTarget('localhost', '127.0.0.1', allow).ok).toBe(true);
    expect(classifyTarget('x', '10.0.0.5', allow).ok).toBe(true);
    expect(classifyTarget('x', '10.0.0.6', allow).ok).toBe(false);
    expect(classifyTarget('HOOKS.internal', '192.168.0.9', allow).ok).toBe(true);
    expect(classifyTarget('metadata', '169.254.169.254', new WebhookAllowlist(undefined))).toMatchObject({ ok: false });
  });
});

describe('the webhook caller refuses before connecting', () => {
  it('an address literal outside the allowlist (no DNS lookup happens for it)', async () => {
    const { WebhookCaller } = await import('./webhook-caller.js');
    const caller = new WebhookCaller({ secret: 's', allow: '127.0.0.1/32' });
    const answer = await caller.call({
      url: 'http://127.0.0.2:9/',
      method: 'POST',
      headers: {},
      body: '{}',
      idempotencyKey: 'k',
    });
    expect(answer).toMatchObject({ status: 0, permanent: true, error: expect.stringMatching(/not a public address/) });
    const metadata = await caller.call({
      url: 'http://[::ffff:169.254.169.254]/latest',
      method: 'GET',
      headers: {},
      idempotencyKey: 'k',
    });
    expect(metadata).toMatchObject({ permanent: true });
  });
});
