import type { EventEnvelope } from '@herald/contracts';
import { parseTraceparent, SpanKind, tracingEnabled, withSpan } from '@herald/core';

/**
 * Runs a consumer's handling of a run of events of one topic in a `process <topic>` span (ADR 0019),
 * so that what the handler writes — events into the outbox, emails — carries its trace. The span is
 * the child of the events' producer span when they all belong to one trace (always so for a single
 * event); a run of events of several traces starts a trace of its own, linked to each of them.
 * With tracing off, just runs `fn`.
 */
export function consumeSpan<T>(
  consumer: string,
  run: EventEnvelope[],
  attempt: number,
  fn: () => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return fn();
  const first = run[0]!;
  const traceIds = new Set(run.map((e) => parseTraceparent(e.traceparent)?.traceId));
  const oneTrace = traceIds.size === 1 && !traceIds.has(undefined);
  return withSpan(
    `process ${first.type}`,
    {
      kind: SpanKind.CONSUMER,
      parent: oneTrace ? first.traceparent! : null,
      ...(run.length > 1 ? { links: run.map((e) => e.traceparent) } : {}),
      attributes: {
        'messaging.operation.type': 'process',
        'messaging.destination.name': first.type,
        'messaging.consumer.group.name': consumer,
        ...(run.length === 1 ? { 'messaging.message.id': first.eventId } : {}),
        'messaging.batch.message_count': run.length,
        'herald.attempt': attempt,
      },
    },
    fn,
  );
}
