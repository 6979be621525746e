import { OutboundAllowlist, outboundRequest } from '@herald/http';
import { Inject, Injectable } from '@nestjs/common';
import { WEBHOOKS_SETTINGS, type WebhooksServiceSettings } from '../webhooks.settings.js';
import { deliversWith } from './retry-schedule.js';
import { signatureHeaders } from './webhook-signature.js';

/** How much of an answer's body the delivery log keeps. */
export const RESPONSE_HEAD_BYTES = 1024;

/** What one attempt saw. */
export interface AttemptResult {
  ok: boolean;
  /** The answer's status; null when none came (timeout, refused by the SSRF guard, network error). */
  status: number | null;
  /** The head of the answer's body. */
  body: string | null;
  latencyMs: number;
  error: string | null;
}

/** The head of an answer as the log keeps it: its first bytes, without the NULs PostgreSQL text refuses. */
function head(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  const cut = bytes.length > RESPONSE_HEAD_BYTES ? bytes.subarray(0, RESPONSE_HEAD_BYTES).toString('utf8') : body;
  return cut.replaceAll('\0', '');
}

/** Time to record an attempt's outcome after its answer, within the hold of its delivery. */
const ATTEMPT_RECORD_MARGIN_MS = 5_000;

/**
 * One attempt of a delivery: a signed POST (Standard Webhooks headers) to the endpoint's URL through
 * the SSRF guard, bounded in time (WEBHOOKS_TIMEOUT_MS, the answer included) and in the answer's size
 * (WEBHOOKS_RESPONSE_MAX_BYTES). Redirects are not followed. Never throws: a failure is a result.
 */
@Injectable()
export class DeliveryAttempts {
  private readonly allow: OutboundAllowlist;

  constructor(@Inject(WEBHOOKS_SETTINGS) private readonly settings: WebhooksServiceSettings) {
    this.allow = new OutboundAllowlist(settings.WEBHOOKS_ALLOW);
  }

  /** How long an attempt may hold its delivery: its time bound, and a margin to record its outcome. */
  get holdMs(): number {
    return this.settings.WEBHOOKS_TIMEOUT_MS + ATTEMPT_RECORD_MARGIN_MS;
  }

  async attempt(
    url: string,
    secrets: readonly string[],
    delivery: { eventId: string; body: string },
  ): Promise<AttemptResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Herald-Webhooks/1',
        ...signatureHeaders(delivery.eventId, new Date(), delivery.body, secrets),
      };
      const res = await outboundRequest({
        url: new URL(url),
        method: 'POST',
        headers,
        body: delivery.body,
        deadline: Date.now() + this.settings.WEBHOOKS_TIMEOUT_MS,
        allow: this.allow,
        maxResponseBytes: this.settings.WEBHOOKS_RESPONSE_MAX_BYTES,
      });
      const ok = deliversWith(res.status);
      return {
        ok,
        status: res.status,
        body: head(res.body),
        latencyMs: latency(),
        error: ok ? null : `HTTP ${res.status}`,
      };
    } catch (err) {
      return {
        ok: false,
        status: null,
        body: null,
        latencyMs: latency(),
        error: err instanceof Error ? err.message : String(err),
      };
    }
  }
}
