import { HeraldError } from './errors.js';

/** Authentication by a key: the project's `sk_…` (or `pk_…`, for `events.track` only), sent as `Authorization: Bearer`. */
export interface KeyAuth {
  /** The project's secret key (`sk_…`), or its public key (`pk_…`) for `events.track` only. */
  apiKey: string;
  session?: undefined;
}

/**
 * Authentication by the session cookie `POST /auth/login` sets (a web app on Herald's own origin):
 * no `Authorization` header, and the browser sends the cookie (`credentials`, default `same-origin`).
 * `projectId` names the project of project-scoped routes (`X-Project-Id`), as sessions must.
 */
export interface SessionAuth {
  apiKey?: undefined;
  session: { projectId?: string | undefined; credentials?: 'same-origin' | 'include' };
}

/** How to reach Herald: a key or a session, and the connection's settings. */
export type HeraldOptions = (KeyAuth | SessionAuth) & HeraldConnectionOptions;

export interface HeraldConnectionOptions {
  /** Where Herald answers, e.g. `https://herald.example.com` (no trailing path). */
  baseUrl: string;
  /** Retries of a request answered 429 or 503, or that got no answer (default 3). */
  maxRetries?: number;
  /** The first retry's delay when the answer names none (`Retry-After`); doubled each time, with jitter (default 500 ms). */
  retryBaseDelayMs?: number;
  /** The longest wait before a retry: a `Retry-After` beyond it is not waited for, the error is thrown (default 60 s). */
  maxRetryDelayMs?: number;
  /** Per attempt (default 30 s). */
  timeoutMs?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Another `fetch` (default: the global one). */
  fetch?: typeof fetch;
}

export interface SendOptions {
  method: string;
  path: string;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  headers?: Record<string, string> | undefined;
  /** The request's `Idempotency-Key`; `auto` makes one, so that its retries cannot be applied twice. */
  idempotencyKey?: string | 'auto' | undefined;
  signal?: AbortSignal | undefined;
}

const RETRIED = new Set([429, 503]);

/** The HTTP exchange: the key, JSON in and out, errors as HeraldError, retries on 429/503 honouring Retry-After. */
export class Transport {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: HeraldOptions) {
    if (!options.session && !options.apiKey) throw new TypeError('Herald: apiKey (or session) is required');
    if (options.session && options.apiKey) throw new TypeError('Herald: apiKey and session exclude each other');
    if (!options.baseUrl) throw new TypeError('Herald: baseUrl is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // called as a plain function: a browser's fetch throws "Illegal invocation" when called as a method of another object
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async send<T>(req: SendOptions): Promise<T> {
    const url = new URL(this.baseUrl + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v === undefined || v === null) continue;
      // an array once, comma-separated: the API reads `metrics=sent,opened` and refuses a repeated key
      url.searchParams.append(k, Array.isArray(v) ? v.map(String).join(',') : String(v));
    }
    const session = this.options.session;
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(session ? {} : { authorization: `Bearer ${this.options.apiKey}` }),
      ...(session?.projectId ? { 'x-project-id': session.projectId } : {}),
      ...this.options.headers,
      ...req.headers,
    };
    // FormData (a file upload) goes as multipart/form-data, its boundary set by fetch; anything else as JSON
    const multipart = typeof FormData !== 'undefined' && req.body instanceof FormData;
    if (req.body !== undefined && !multipart) headers['content-type'] = 'application/json';
    const maxRetries = this.options.maxRetries ?? 3;
    // `auto`: one key for every attempt of this call (as Stripe's clients do), when it may be retried
    if (req.idempotencyKey === 'auto') {
      if (maxRetries > 0) headers['idempotency-key'] = crypto.randomUUID();
    } else if (req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey;
    const body = req.body === undefined ? undefined : multipart ? (req.body as FormData) : JSON.stringify(req.body);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
        const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
        const init: RequestInit = { method: req.method.toUpperCase(), headers, body, signal };
        if (session) init.credentials = session.credentials ?? 'same-origin';
        response = await this.fetch(url, init);
      } catch (cause) {
        if (req.signal?.aborted) throw cause;
        const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
        const error = new HeraldError({
          status: 0,
          code: timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
          message: timedOut
            ? `Herald did not answer ${req.method} ${req.path} in time`
            : `Herald unreachable: ${String(cause)}`,
          cause,
        });
        // without an answer the request may have been applied: retried only when a repeat cannot double it
        const repeatable = req.method.toLowerCase() === 'get' || headers['idempotency-key'] !== undefined;
        if (!repeatable || attempt >= maxRetries) throw error;
        await sleep(this.backoff(attempt), req.signal);
        continue;
      }
      const parsed = await readBody(response);
      if (response.ok) return parsed as T;
      const error = HeraldError.fromResponse(response.status, response.headers, parsed);
      if (!RETRIED.has(response.status) || attempt >= maxRetries) throw error;
      const delay = retryAfterMs(response.headers.get('retry-after')) ?? this.backoff(attempt);
      if (delay > (this.options.maxRetryDelayMs ?? 60_000)) throw error;
      await sleep(delay, req.signal);
    }
  }

  /** Exponential backoff with full jitter: a random wait in [base·2ⁿ/2, base·2ⁿ]. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(
      (this.options.retryBaseDelayMs ?? 500) * 2 ** attempt,
      this.options.maxRetryDelayMs ?? 60_000,
    );
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if (!(response.headers.get('content-type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
