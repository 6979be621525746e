import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Injectable } from '@nestjs/common';

const generateRsa = promisify(generateKeyPair);
const SELECTOR_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export interface DkimKeyPair {
  /** e.g. `herald7k2m9q`: a DNS label, lower case. */
  selector: string;
  /** base64 of the DER SubjectPublicKeyInfo: the `p=` tag of the DKIM record. */
  publicKey: string;
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), what nodemailer's DKIM signer takes. */
  privateKeyPem: string;
}

/** Random lower-case letters and digits, unbiased (bytes from 252 up are drawn again: 252 = 7 × 36). */
export function randomLabel(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 252 && out.length < length) out += SELECTOR_ALPHABET[b % 36];
    }
  }
  return out;
}

/** A fresh RSA-2048 DKIM key pair and selector for a new domain (node:crypto, off the event loop). */
@Injectable()
export class DkimKeyGenerator {
  async generate(): Promise<DkimKeyPair> {
    const { publicKey, privateKey } = await generateRsa('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    return {
      selector: `herald${randomLabel(8)}`,
      publicKey: (publicKey as Buffer).toString('base64'),
      privateKeyPem: privateKey as string,
    };
  }

  /** The ownership token put in `_herald.<domain>`: 128 random bits, hex. */
  verificationToken(): string {
    return randomBytes(16).toString('hex');
  }
}
