import type { DeliveryStatus } from './delivery.entity.js';

/** One delivery in an endpoint's log. */
export interface WebhookDeliveryView {
  id: string;
  endpointId: string;
  /** The event's id: the `webhook-id` header and the body's `id`. */
  eventId: string;
  eventType: string;
  /** `pending` (due, or waiting for a retry), `delivered` (a 2xx answer) or `dead` (every retry failed). */
  status: DeliveryStatus;
  /** Attempts since it was created or last replayed. */
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  /** The last answer's HTTP status; null when none came. */
  responseStatus: number | null;
  /** The first 1,024 bytes of the last answer's body. */
  responseBody: string | null;
  /** How long the last attempt took, in milliseconds. */
  latencyMs: number | null;
  /** Why the last attempt failed (`HTTP 500`, a timeout, a refused address). */
  error: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

const iso = (v: unknown): string | null => (v == null ? null : new Date(v as string | Date).toISOString());

/** A log row (DELIVERY_COLUMNS) as the API shows it. */
export function deliveryView(r: Record<string, unknown>): WebhookDeliveryView {
  return {
    id: r.id as string,
    endpointId: r.endpoint_id as string,
    eventId: r.event_id as string,
    eventType: r.event_type as string,
    status: r.status as DeliveryStatus,
    attempts: Number(r.attempts),
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    lastAttemptAt: iso(r.last_attempt_at),
    responseStatus: r.response_status == null ? null : Number(r.response_status),
    responseBody: (r.response_body as string | null) ?? null,
    latencyMs: r.latency_ms == null ? null : Number(r.latency_ms),
    error: (r.last_error as string | null) ?? null,
    deliveredAt: iso(r.delivered_at),
    createdAt: iso(r.created_at)!,
  };
}
