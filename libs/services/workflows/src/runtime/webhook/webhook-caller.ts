import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { classifyTarget, WebhookAllowlist } from './ssrf-guard.js';

export interface WebhookRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** The step run's id: the Idempotency-Key header (a retried call carries the same one). */
  idempotencyKey: string;
}

export interface WebhookAnswer {
  /** 0 when no answer arrived (refused, timed out, network error). */
  status: number;
  body: string;
  /** Why there was no answer, or why it is refused. */
  error?: string;
  /** Whether the failure is final (an SSRF refusal, a bad URL): no retry. */
  permanent?: boolean;
}

export interface WebhookCallerOptions {
  secret: string;
  allow?: string;
  timeoutMs?: number;
  maxResponseBytes?: number;
  maxRedirects?: number;
}

class Refused extends Error {}

/**
 * Calls a WEBHOOK step's URL: signed (`X-Herald-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">`), with `Idempotency-Key`, 10 s for the whole exchange, the answer read up to a
 * bound. Every connection, redirects included, goes through a lookup that resolves the host and
 * refuses it unless every address is public or allowlisted; the socket connects to the checked
 * address (no second resolution between check and connect).
 */
export class WebhookCaller {
  private readonly allow: WebhookAllowlist;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;

  constructor(private readonly options: WebhookCallerOptions) {
    this.allow = new WebhookAllowlist(options.allow);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBytes = options.maxResponseBytes ?? 64 * 1024;
    this.maxRedirects = options.maxRedirects ?? 5;
  }

  sign(body: string, at = Math.floor(Date.now() / 1000)): string {
    const mac = createHmac('sha256', this.options.secret).update(`${at}.${body}`).digest('hex');
    return `t=${at},v1=${mac}`;
  }

  async call(req: WebhookRequest): Promise<WebhookAnswer> {
    const deadline = Date.now() + this.timeoutMs;
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return { status: 0, body: '', error: 'not a valid URL', permanent: true };
    }
    let method = req.method.toUpperCase();
    let body = req.body;
    for (let hop = 0; hop <= this.maxRedirects; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return { status: 0, body: '', error: `${url.protocol} URLs are not called`, permanent: true };
      let res: { status: number; location?: string; body: string };
      try {
        res = await this.once(url, method, req, body, deadline);
      } catch (err) {
        if (err instanceof Refused) return { status: 0, body: '', error: err.message, permanent: true };
        return { status: 0, body: '', error: (err as Error).message };
      }
      if (res.status >= 300 && res.status < 400 && res.location) {
        url = new URL(res.location, url);
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      return { status: res.status, body: res.body };
    }
    return { status: 0, body: '', error: 'too many redirects' };
  }

  private guardedLookup(host: string): LookupFunction {
    return (hostname, options, callback) => {
      const done = (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 0);
        for (const a of addresses) {
          const verdict = classifyTarget(host, a.address, this.allow);
          if (!verdict.ok) return callback(new Refused(verdict.reason) as NodeJS.ErrnoException, '', 0);
        }
        const first = addresses[0];
        if (!first) return callback(new Error(`${host} has no address`) as NodeJS.ErrnoException, '', 0);
        if ((options as { all?: boolean }).all)
          (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [first]);
        else callback(null, first.address, first.family);
      };
      if (isIP(hostname)) return done(null, [{ address: hostname, family: isIP(hostname) }]);
      dnsLookup(hostname, { all: true }, done);
    };
  }

  private once(
    url: URL,
    method: string,
    req: WebhookRequest,
    body: string | undefined,
    deadline: number,
  ): Promise<{ status: number; location?: string; body: string }> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const payload = body ?? '';
    const headers: Record<string, string> = {
      'user-agent': 'Herald-Workflows/1',
      ...req.headers,
      'idempotency-key': req.idempotencyKey,
      'x-herald-signature': this.sign(payload),
    };
    if (body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    // an address literal is connected to without a lookup: check it here
    if (isIP(host)) {
      const verdict = classifyTarget(host, host, this.allow);
      if (!verdict.ok) return Promise.reject(new Refused(verdict.reason));
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) return Promise.reject(new Error('timed out after 10 s'));
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const r = lib.request(
        url,
        { method, headers, lookup: this.guardedLookup(host), agent: false, timeout: remaining },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            if (size >= this.maxBytes) return;
            chunks.push(c.subarray(0, this.maxBytes - size));
            size += c.length;
            if (size >= this.maxBytes) res.destroy();
          });
          const finish = () =>
            resolve({
              status: res.statusCode ?? 0,
              ...(typeof res.headers.location === 'string' ? { location: res.headers.location } : {}),
              body: Buffer.concat(chunks).toString('utf8'),
            });
          res.on('end', finish);
          res.on('close', finish);
          res.on('error', finish);
        },
      );
      const timer = setTimeout(() => r.destroy(new Error('timed out after 10 s')), remaining);
      r.on('close', () => clearTimeout(timer));
      r.on('timeout', () => r.destroy(new Error('timed out after 10 s')));
      r.on('error', reject);
      r.end(body);
    });
  }
}
