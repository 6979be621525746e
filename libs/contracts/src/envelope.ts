/**
 * The envelope every Herald event travels in, on Kafka and on the in-process bus alike.
 * Serialised as JSON in the Kafka message value; the message key is `key`.
 */
export interface EventEnvelope<P = unknown> {
  /**
   * Unique id of this event; consumers de-duplicate on it. A UUIDv7 (time-ordered): the outbox and
   * inbox indexes on it then grow at their right edge like a sequence, instead of each new id
   * landing on a random index page.
   */
  eventId: string;
  /** The topic, e.g. `event.tracked`. */
  type: string;
  /** Payload contract version; a breaking change is a new version published side by side. */
  version: number;
  projectId: string;
  /** ISO 8601 timestamp of the business fact. */
  occurredAt: string;
  /** Partitioning key: the contact id, or the project id where no contact is involved. */
  key: string;
  /** Service that produced the event. */
  source: string;
  /** Follows one request through every service (the HTTP request id that caused it). */
  correlationId?: string;
  /** The event that caused this one, if any. */
  causationId?: string;
  /**
   * W3C trace context (`00-<trace id>-<span id>-<flags>`) of the span that produced the event, when
   * it was traced (ADR 0019): the outbox row keeps it, the relay replaces it with its publish span's
   * (and sends it as the Kafka `traceparent` header too), and the consumer's span is that span's child.
   */
  traceparent?: string;
  payload: P;
}
