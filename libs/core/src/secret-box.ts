import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** 32-byte AES key from a configured passphrase (any length; SHA-256 stretches or shrinks it). */
const keyOf = (passphrase: string): Buffer => createHash('sha256').update(`herald-secret-box:${passphrase}`).digest();

/**
 * Seals a secret (a DKIM private key) for storage or for the bus: AES-256-GCM with a random
 * 96-bit nonce, authenticated, as `v1.<nonce>.<tag>.<ciphertext>` in base64url.
 */
export function sealSecret(plaintext: string, passphrase: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(passphrase), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

/** Opens what `sealSecret` sealed; throws when the passphrase is wrong or the box was altered. */
export function openSecret(sealed: string, passphrase: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(passphrase), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * A secret for one purpose derived from another (standalone mode derives the DKIM key box and the
 * link-signing secret from its generated internal secret, so a fresh install needs no setup).
 */
export function derivedSecret(purpose: string, base: string): string {
  return createHash('sha256').update(`herald:${purpose}:${base}`).digest('base64url');
}

/** The passphrase of DKIM key boxes: DKIM_ENCRYPTION_KEY, else derived from the internal secret. */
export function dkimEncryptionKey(configured: string | undefined, internalJwtSecret: string): string {
  return configured ?? derivedSecret('dkim-key-box', internalJwtSecret);
}
