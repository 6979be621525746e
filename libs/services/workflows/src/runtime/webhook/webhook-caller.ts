import { createHmac } from 'node:crypto';
import { OutboundAllowlist, outboundRequest, OutboundRefused, OutboundTimeout } from '@herald/http';

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
 * bound. Every connection, redirects included, goes through the SSRF guard of `outboundRequest`
 * (@herald/http): the host is refused unless every address is public or allowlisted, and the socket
 * connects to the checked address (no second resolution between check and connect).
 */
export class WebhookCaller {
  private readonly allow: OutboundAllowlist;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;

  constructor(private readonly options: WebhookCallerOptions) {
    this.allow = new OutboundAllowlist(options.allow);
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

  private async once(
    url: URL,
    method: string,
    req: WebhookRequest,
    body: string | undefined,
    deadline: number,
  ): Promise<{ status: number; location?: string; body: string }> {
    const payload = body ?? '';
    const headers: Record<string, string> = {
      'user-agent': 'Herald-Workflows/1',
      ...req.headers,
      'idempotency-key': req.idempotencyKey,
      'x-herald-signature': this.sign(payload),
    };
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    try {
      return await outboundRequest({
        url,
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        deadline,
        allow: this.allow,
        maxResponseBytes: this.maxBytes,
      });
    } catch (err) {
      if (err instanceof OutboundRefused) throw new Refused(err.message);
      if (err instanceof OutboundTimeout) throw new Error('timed out after 10 s');
      throw err;
    }
  }
}
