import { execFileSync } from 'node:child_process';
import { genericSignature, signGenericWebhook, verifyGenericSignature } from './generic-signature.js';

const SECRET = 'whsec_test_0123456789abcdef';
const NOW = 1_780_000_000;
const BODY = Buffer.from('{"id":"evt_1","type":"bounce","email":"jane@example.org","bounceType":"permanent"}');

describe('generic webhook signature: X-Herald-Signature t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">', () => {
  it('is the HMAC-SHA256 of "<t>.<body>" in hex (matches an independent computation)', () => {
    // printf '%s' '1780000000.{"id":"evt_1",...}' | openssl dgst -sha256 -hmac "$SECRET"
    const expected = execFileSync('openssl', ['dgst', '-sha256', '-hmac', SECRET, '-r'], {
      input: Buffer.concat([Buffer.from(`${NOW}.`), BODY]),
    })
      .toString()
      .split(' ')[0];
    expect(genericSignature(SECRET, NOW, BODY)).toBe(expected);
  });

  it('accepts a valid signature', () => {
    expect(verifyGenericSignature(SECRET, signGenericWebhook(SECRET, BODY, NOW), BODY, NOW)).toEqual({ ok: true });
  });

  it('accepts a timestamp within 5 minutes either way', () => {
    expect(verifyGenericSignature(SECRET, signGenericWebhook(SECRET, BODY, NOW - 300), BODY, NOW).ok).toBe(true);
    expect(verifyGenericSignature(SECRET, signGenericWebhook(SECRET, BODY, NOW + 300), BODY, NOW).ok).toBe(true);
  });

  it('refuses a stale timestamp (older than 5 minutes)', () => {
    const check = verifyGenericSignature(SECRET, signGenericWebhook(SECRET, BODY, NOW - 301), BODY, NOW);
    expect(check).toEqual({ ok: false, reason: expect.stringMatching(/more than 300 seconds/) });
  });

  it('refuses a timestamp more than 5 minutes in the future', () => {
    expect(verifyGenericSignature(SECRET, signGenericWebhook(SECRET, BODY, NOW + 301), BODY, NOW).ok).toBe(false);
  });

  it('refuses a signature made with another secret', () => {
    const check = verifyGenericSignature(SECRET, signGenericWebhook('another-secret-0123456789', BODY, NOW), BODY, NOW);
    expect(check).toEqual({ ok: false, reason: expect.stringMatching(/does not match/) });
  });

  it('refuses a tampered body (one byte changed)', () => {
    const header = signGenericWebhook(SECRET, BODY, NOW);
    const tampered = Buffer.from(BODY.toString().replace('permanent', 'transient'));
    expect(verifyGenericSignature(SECRET, header, tampered, NOW).ok).toBe(false);
  });

  it('refuses a body re-serialised with different whitespace (the raw bytes are signed)', () => {
    const header = signGenericWebhook(SECRET, BODY, NOW);
    expect(
      verifyGenericSignature(SECRET, header, Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 1)), NOW).ok,
    ).toBe(false);
  });

  it('refuses a signature whose timestamp was changed after signing', () => {
    const v1 = genericSignature(SECRET, NOW - 10, BODY);
    expect(verifyGenericSignature(SECRET, `t=${NOW},v1=${v1}`, BODY, NOW).ok).toBe(false);
  });

  it.each([
    undefined,
    '',
    'v1=abc',
    `t=${NOW}`,
    'garbage',
    `t=abc,v1=${'0'.repeat(64)}`,
    `t=${NOW},v1=xyz`,
    `t=${NOW},v1=${'0'.repeat(63)}`,
  ])('refuses the header %j', (header) => {
    expect(verifyGenericSignature(SECRET, header, BODY, NOW).ok).toBe(false);
  });

  it('accepts when any of several v1 values matches (secret rotation), with spaces after commas', () => {
    const good = genericSignature(SECRET, NOW, BODY);
    expect(verifyGenericSignature(SECRET, `t=${NOW}, v1=${'a'.repeat(64)}, v1=${good}`, BODY, NOW).ok).toBe(true);
  });

  it('accepts upper-case hex', () => {
    expect(
      verifyGenericSignature(SECRET, `t=${NOW},v1=${genericSignature(SECRET, NOW, BODY).toUpperCase()}`, BODY, NOW).ok,
    ).toBe(true);
  });
});

describe('the sample signed request in docs/webhooks.md', () => {
  it('verifies at its timestamp', () => {
    const body = Buffer.from(
      '{"id":"evt_8f2c1d","type":"bounce","email":"jane@example.org","bounceType":"permanent","messageId":"<em_01jd7x3k9q@mail.example.com>","reason":"550 5.1.1 user unknown","occurredAt":"2026-05-28T20:26:40Z"}',
    );
    const header = 't=1780000000,v1=ab6ac31cfcbbfd620365c7f2da3d45078409e7b6d8f51d3ef6f6e143f93542f9';
    expect(verifyGenericSignature('whsec_0123456789abcdef', header, body, 1_780_000_000).ok).toBe(true);
  });
});
