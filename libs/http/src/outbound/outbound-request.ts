import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { classifyTarget, type OutboundAllowlist } from './ssrf-guard.js';

/** One HTTP exchange with a host a user named (a webhook URL), through the SSRF guard. */
export interface OutboundRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** `Date.now()` value by which the whole exchange, answer included, must be over. */
  deadline: number;
  /** Targets allowed although not public. */
  allow: OutboundAllowlist;
  /** The answer's body is read up to this many bytes; the connection is closed past it. */
  maxResponseBytes: number;
}

export interface OutboundResponse {
  status: number;
  /** The `Location` header of a redirect (not followed here). */
  location?: string;
  /** The first `maxResponseBytes` of the answer's body, as UTF-8. */
  body: string;
}

/** The guard refused the target (it resolves to a non-public address): a policy answer, not a network failure. */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

/** The exchange did not finish by its deadline. */
export class OutboundTimeout extends Error {
  override name = 'OutboundTimeout';
}

/**
 * A lookup that resolves `host` and refuses it unless every address is public or allowlisted; the
 * socket connects to the checked address, so nothing resolves the name again between the check and
 * the connection (no DNS rebinding window).
 */
function guardedLookup(host: string, allow: OutboundAllowlist): LookupFunction {
  return (hostname, options, callback) => {
    const done = (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const verdict = classifyTarget(host, a.address, allow);
        if (!verdict.ok) return callback(new OutboundRefused(verdict.reason) as NodeJS.ErrnoException, '', 0);
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

/**
 * Sends one request (redirects are answered, not followed: the caller decides) to a user-named
 * target: refused with {@link OutboundRefused} before connecting when the target is not public and
 * not allowlisted (an address literal is checked here, a host name by the lookup); rejected with
 * {@link OutboundTimeout} at the deadline; the answer's body read up to `maxResponseBytes`. No
 * connection is reused (no agent), so every request is checked afresh.
 */
export function outboundRequest(req: OutboundRequest): Promise<OutboundResponse> {
  const host = req.url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const verdict = classifyTarget(host, host, req.allow);
    if (!verdict.ok) return Promise.reject(new OutboundRefused(verdict.reason));
  }
  const remaining = req.deadline - Date.now();
  const timedOut = () => new OutboundTimeout(`timed out after ${Math.max(0, remaining)} ms`);
  if (remaining <= 0) return Promise.reject(timedOut());
  const headers = { ...req.headers };
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  const lib = req.url.protocol === 'https:' ? https : http;
  const maxBytes = req.maxResponseBytes;
  return new Promise((resolve, reject) => {
    const r = lib.request(
      req.url,
      { method: req.method, headers, lookup: guardedLookup(host, req.allow), agent: false, timeout: remaining },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size >= maxBytes) return;
          chunks.push(c.subarray(0, maxBytes - size));
          size += c.length;
          if (size >= maxBytes) res.destroy();
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
    const timer = setTimeout(() => r.destroy(timedOut()), remaining);
    r.on('close', () => clearTimeout(timer));
    r.on('timeout', () => r.destroy(timedOut()));
    r.on('error', reject);
    r.end(req.body);
  });
}
