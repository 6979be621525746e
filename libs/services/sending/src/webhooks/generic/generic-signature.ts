import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-herald-signature';
/** How far a signature's timestamp may be from Herald's clock, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** `hex(HMAC-SHA256(secret, "<t>.<raw body>"))`. */
export function genericSignature(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The header value for a body signed at `timestamp` (unix seconds): `t=<timestamp>,v1=<hex>`. */
export function signGenericWebhook(
  secret: string,
  rawBody: Buffer | string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestamp},v1=${genericSignature(secret, timestamp, rawBody)}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks `X-Herald-Signature: t=<unix seconds>,v1=<hex>` over the exact body bytes: the timestamp
 * within {@link SIGNATURE_TOLERANCE_SECONDS} of now, and any `v1` (several may be sent while a
 * relay rotates secrets) equal, compared in constant time, to the HMAC of `"<t>.<raw body>"`.
 */
export function verifyGenericSignature(
  secret: string,
  header: string | undefined,
  rawBody: Buffer,
  nowSeconds = Math.floor(Date.now() / 1000),
): SignatureCheck {
  if (!header) return { ok: false, reason: 'The X-Herald-Signature header is missing' };
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1') candidates.push(value);
  }
  if (timestamp === undefined || candidates.length === 0) {
    return { ok: false, reason: 'X-Herald-Signature must be t=<unix seconds>,v1=<hex HMAC-SHA256>' };
  }
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    return {
      ok: false,
      reason: `The signature timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from now: check the relay's clock, and sign each request when it is sent`,
    };
  }
  const expected = Buffer.from(genericSignature(secret, timestamp, rawBody), 'hex');
  const matches = candidates.some((c) => {
    if (!/^[0-9a-fA-F]{64}$/.test(c)) return false;
    return timingSafeEqual(Buffer.from(c, 'hex'), expected);
  });
  return matches
    ? { ok: true }
    : { ok: false, reason: 'The signature does not match the body: sign "<t>.<raw body>" with WEBHOOK_SIGNING_SECRET' };
}
