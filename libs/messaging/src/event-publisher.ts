import type { EventEnvelope } from '@herald/contracts';

/** Where the outbox relay hands events: Kafka in distributed mode, the in-process bus in standalone. */
export interface EventPublisher {
  /** The transport's name in traces (`messaging.system`). */
  readonly system?: string;
  /** Publishes in order; resolves once every event is durably accepted (or fully handled in-process). */
  publish(envelopes: EventEnvelope[]): Promise<void>;
  /** Checks the transport is reachable (readiness). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export const EVENT_PUBLISHER = Symbol('EVENT_PUBLISHER');
