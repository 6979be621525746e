import type { EventEnvelope } from '@herald/contracts';
import { failSpan, formatTraceparent, SpanKind, startSpan, tracingEnabled } from '@herald/core';
import type { Span } from '@opentelemetry/api';

/**
 * The relay's `publish <topic>` span of each traced event (ADR 0019): a child of the span that wrote
 * the event (its envelope's `traceparent`, stored with the outbox row), which then takes its place in
 * the envelope, so that the consumer's span is the publish span's child. Events written outside any
 * trace are published without one. Returns what ends the spans once the publisher answered (with
 * tracing off, or no traced event, nothing is done).
 */
export function startPublishSpans(
  service: string,
  system: string,
  envelopes: EventEnvelope[],
): ((err?: unknown) => void) | undefined {
  if (!tracingEnabled()) return undefined;
  const spans: Span[] = [];
  for (const e of envelopes) {
    if (!e.traceparent) continue;
    const span = startSpan(`publish ${e.type}`, {
      kind: SpanKind.PRODUCER,
      parent: e.traceparent,
      attributes: {
        'messaging.system': system,
        'messaging.operation.type': 'send',
        'messaging.destination.name': e.type,
        'messaging.message.id': e.eventId,
        'herald.service': service,
      },
    });
    if (!span) continue;
    if (span.spanContext().traceFlags & 1) e.traceparent = formatTraceparent(span.spanContext());
    spans.push(span);
  }
  if (spans.length === 0) return undefined;
  return (err) => {
    for (const span of spans) {
      if (err !== undefined) failSpan(span, err);
      span.end();
    }
  };
}
