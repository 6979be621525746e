import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newSigningSecret } from '../endpoints/endpoint-secrets.js';
import { signatureHeaders } from './webhook-signature.js';

describe('Standard Webhooks signatures of a delivery', () => {
  const body = JSON.stringify({
    type: 'contact.created',
    id: '0190a1b2-0000-7000-8000-000000000001',
    data: { a: 'é' },
  });

  it('verifies with the off-the-shelf library, and not after a byte of the body changed', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = signatureHeaders('evt-1', new Date(), body, [secret]);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('é', 'e'), { ...headers })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow(WebhookVerificationError);
  });

  it('is v1,<base64 HMAC-SHA256 of "id.timestamp.body"> keyed by the base64-decoded secret', () => {
    const secret = newSigningSecret();
    const at = new Date('2026-05-01T12:00:00.900Z');
    const headers = signatureHeaders('evt-2', at, body, [secret]);
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const mac = createHmac('sha256', key).update(`evt-2.1777636800.${body}`).digest('base64');
    expect(headers).toEqual({
      'webhook-id': 'evt-2',
      'webhook-timestamp': '1777636800',
      'webhook-signature': `v1,${mac}`,
    });
  });

  it('signs with every secret given (a rotated one beside the new): either verifies', () => {
    const [previous, current] = [newSigningSecret(), newSigningSecret()];
    const headers = signatureHeaders('evt-3', new Date(), body, [current, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(previous).verify(body, { ...headers })).toBeTruthy();
    expect(new Webhook(current).verify(body, { ...headers })).toBeTruthy();
    expect(() => signatureHeaders('evt-4', new Date(), body, [])).toThrow();
  });
});
