import { Webhook } from 'standardwebhooks';

/** The Standard Webhooks headers of one attempt (https://www.standardwebhooks.com). */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs a delivery as Standard Webhooks says, with its reference library (`standardwebhooks`, the one
 * customers verify with): `webhook-signature` is `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`
 * keyed by the base64-decoded `whsec_` secret, one such signature per secret, space-separated (while a
 * rotated secret is still honoured, both sign). `webhook-timestamp` is the attempt's time in Unix
 * seconds; `webhook-id` is the event's id, the same in every attempt.
 */
export function signatureHeaders(id: string, at: Date, body: string, secrets: readonly string[]): SignatureHeaders {
  if (secrets.length === 0) throw new Error('a delivery needs a signing secret');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' '),
  };
}
