/**
 * The fault suite's steady load (issue 44): `POST /v1/send` and `POST /v1/track` in turn at
 * FAULTS_RATE requests a second (default 10), each to a recipient of its own, every answer written
 * to the ledger. A request that gets no answer within 10 s is recorded with status null (never a
 * hang); the driver never retries, so that the ledger says exactly what each request was told.
 */
import { eventually } from '@herald/testing';
import type { LedgerEntry } from './oracle.js';

export interface LoadTarget {
  /** The public URL (the gateway). */
  url: string;
  /** The project's secret key. */
  key: string;
  /** A sender address on a verified domain of the project. */
  from: string;
  /** What makes this driver's recipients its own (`<tag>-<n>@example.com`). */
  tag: string;
}

export const faultsRate = (): number => Number(process.env.FAULTS_RATE ?? 10);

const REQUEST_TIMEOUT_MS = 10_000;

export class LoadDriver {
  readonly ledger: LedgerEntry[] = [];
  private timer?: NodeJS.Timeout;
  private readonly inFlight = new Set<Promise<void>>();
  private seq = 0;

  constructor(
    private readonly target: LoadTarget,
    readonly rate = faultsRate(),
  ) {}

  start(): void {
    this.timer = setInterval(() => this.fire(), 1000 / this.rate);
  }

  /** Stops sending and waits for the requests still out. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.inFlight]);
  }

  /**
   * Waits until `count` requests started at or after `since` have their answer (or their failure):
   * the load a scenario lets run between two faults, measured in requests rather than slept.
   */
  async answeredSince(since: number, count: number): Promise<void> {
    await eventually(() => this.ledger.filter((e) => e.startedAt >= since).length >= count, {
      timeoutMs: (count / this.rate) * 1000 + 60_000,
      intervalMs: 50,
      message: `${count} requests answered`,
    });
  }

  private fire(): void {
    const n = ++this.seq;
    const p = (n % 2 === 0 ? this.send(n) : this.track(n)).finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  private recipient(n: number): string {
    return `${this.target.tag}-${n}@example.com`;
  }

  private async send(n: number): Promise<void> {
    const to = this.recipient(n);
    await this.request(
      'send',
      to,
      '/v1/send',
      { to, from: this.target.from, subject: `Fault load ${n}`, body: `<p>n=${n}</p>` },
      (b) => (b as { data?: { emails?: { email?: string }[] } }).data?.emails?.[0]?.email,
    );
  }

  private async track(n: number): Promise<void> {
    const email = this.recipient(n);
    await this.request(
      'track',
      email,
      '/v1/track',
      { email, event: 'fault-load', data: { n } },
      (b) => (b as { data?: { event?: string } }).data?.event,
    );
  }

  private async request(
    kind: LedgerEntry['kind'],
    recipient: string,
    path: string,
    body: unknown,
    idOf: (body: unknown) => string | undefined,
  ): Promise<void> {
    const startedAt = Date.now();
    let status: number | null = null;
    let id: string | undefined;
    let retryAfter: string | undefined;
    let error: string | undefined;
    try {
      const res = await fetch(`${this.target.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.target.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      status = res.status;
      retryAfter = res.headers.get('retry-after') ?? undefined;
      const text = await res.text();
      if (res.ok) id = idOf(JSON.parse(text));
      else error = text.slice(0, 200);
    } catch (err) {
      status ??= null; // refused, reset or timed out: no answer
      error = String((err as { cause?: unknown }).cause ?? err).slice(0, 200);
    }
    this.ledger.push({
      kind,
      recipient,
      startedAt,
      endedAt: Date.now(),
      status,
      ...(id ? { id } : {}),
      ...(retryAfter ? { retryAfter } : {}),
      ...(error ? { error } : {}),
    });
  }
}
