import { EventPattern } from '@nestjs/microservices';

/** What an `OnEvent` / `OnEventBatch` registration carries: the topic, the consumer (service) that handles it, and the handler's shape. */
export interface EventRoute {
  consumer: string;
  topic: string;
  /** The handler takes a run of events at once (`OnEventBatch`). */
  batch?: true;
}

/**
 * Marks a controller method as the handler of `topic` for `consumer` (the owning service). It is a
 * plain `@EventPattern`, served by the Kafka transport in distributed mode and by the in-process
 * transport in standalone mode. The pattern is the pair (consumer, topic), so that two services
 * handling one topic in the same process stay apart: Nest chains handlers of one pattern and calls
 * them together, which is right within a service (one transaction, one inbox row) and wrong across
 * services. Use with `@Payload() envelope: EventEnvelope<P>` and `@Ctx() ctx: EventContext`.
 */
export const OnEvent = (consumer: string, topic: string): MethodDecorator =>
  EventPattern<Record<string, string>>(
    { consumer, topic } satisfies EventRoute,
    { consumer, topic } satisfies EventRoute,
  );

/**
 * Like `OnEvent`, for a handler that applies many events with a few multi-row statements: it is
 * called with each run of consecutive events of `topic` in a delivered batch (a Kafka batch, an
 * outbox relay round), in order, inside the transaction that records them all in the inbox; a run
 * is one event when a failed batch is retried event by event. Use with
 * `@Payload() envelopes: EventEnvelope<P>[]` and `@Ctx() ctx: EventBatchContext`.
 */
export const OnEventBatch = (consumer: string, topic: string): MethodDecorator =>
  EventPattern<Record<string, unknown>>(
    { consumer, topic, batch: true } satisfies EventRoute,
    { consumer, topic, batch: true } satisfies EventRoute,
  );
