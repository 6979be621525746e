import { SnsCertificates } from './sns-certificates.js';
import type { SnsHttpClient } from './sns-https-client.js';
import type { SnsMessage } from './sns-message.js';
import { verifySnsSignature } from './sns-signature.js';

/** Why an SNS message is not trusted (answered 403; nothing is recorded). */
export class SnsVerificationError extends Error {}

/**
 * Proves an SNS message came from Amazon SNS: its SigningCertURL must match the allowed pattern
 * (https, an sns.<region>.amazonaws.com host), the certificate there must be valid, and the
 * signature (v1 SHA1 / v2 SHA256) must verify over the canonical string.
 */
export class SnsVerifier {
  private readonly certUrl: RegExp;
  private readonly certificates: SnsCertificates;

  constructor(http: SnsHttpClient, certUrlPattern: string, now?: () => number) {
    this.certUrl = new RegExp(certUrlPattern);
    this.certificates = new SnsCertificates(http, now);
  }

  async verify(m: SnsMessage): Promise<void> {
    if (!isHttpsUrl(m.SigningCertURL) || !this.certUrl.test(m.SigningCertURL)) {
      throw new SnsVerificationError(`SigningCertURL ${m.SigningCertURL} is not an allowed SNS certificate URL`);
    }
    let cert;
    try {
      cert = await this.certificates.get(m.SigningCertURL);
    } catch (err) {
      throw new SnsVerificationError(`The signing certificate could not be used: ${(err as Error).message}`);
    }
    if (!verifySnsSignature(m, cert)) throw new SnsVerificationError('The SNS signature does not verify');
  }
}

/** An absolute https URL with no user info (checked before any pattern, so a pattern cannot be fooled by `https://sns…@evil`). */
export function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
