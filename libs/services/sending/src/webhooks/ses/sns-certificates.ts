import { X509Certificate } from 'node:crypto';
import type { SnsHttpClient } from './sns-https-client.js';

const TTL_MS = 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 100;

/**
 * SNS signing certificates by URL, fetched over HTTPS and cached for a day (SNS rotates them by
 * publishing a new URL). Concurrent requests for one URL share a fetch; failures are not cached.
 * A certificate outside its validity period is refused.
 */
export class SnsCertificates {
  private readonly cache = new Map<string, { cert: X509Certificate; until: number }>();
  private readonly pending = new Map<string, Promise<X509Certificate>>();

  constructor(
    private readonly http: SnsHttpClient,
    private readonly now: () => number = Date.now,
  ) {}

  async get(url: string): Promise<X509Certificate> {
    const hit = this.cache.get(url);
    const cert = hit && hit.until > this.now() ? hit.cert : await this.fetch(url);
    const now = this.now();
    if (Date.parse(cert.validFrom) > now || Date.parse(cert.validTo) < now) {
      throw new Error(`The SNS signing certificate at ${url} is not valid now (${cert.validFrom} – ${cert.validTo})`);
    }
    return cert;
  }

  private fetch(url: string): Promise<X509Certificate> {
    let p = this.pending.get(url);
    if (!p) {
      p = this.download(url).finally(() => this.pending.delete(url));
      this.pending.set(url, p);
    }
    return p;
  }

  private async download(url: string): Promise<X509Certificate> {
    const res = await this.http.get(url);
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(res.body);
    } catch {
      throw new Error(`${url} did not serve a PEM certificate`);
    }
    this.cache.delete(url);
    this.cache.set(url, { cert, until: this.now() + TTL_MS });
    while (this.cache.size > MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    return cert;
  }
}
