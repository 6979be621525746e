import { EventPattern } from '@nestjs/microservices';

/** What an `OnEvent` / `OnEventBatch` registration carries: the topic, the consumer (service) that handles it, and the handler's shape. */
export interface EventRoute {
  consumer: string;
  topic: string;
  /** The handler takes a run of events at once (`OnEventBatch`). */
  batch?: true;
  /** The batch handler takes every event of its topic in a delivered batch in one run (`OnEventBatch` `gather`). */
  gather?: true;
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
 *
 * `gather: true`: the handler does not depend on the order of its topic's events relative to the
 * consumer's other topics (Kafka gives no such order either: each topic has its own partitions), so
 * every event of `topic` in a delivered batch comes in one run, at the place of the first one, even
 * when other topics' events lie between them (an outbox relay round interleaves `contact.created`
 * and `event.tracked`). Events of the topic stay in their order.
 */
export const OnEventBatch = (consumer: string, topic: string, options: { gather?: boolean } = {}): MethodDecorator => {
  const route: EventRoute = { consumer, topic, batch: true, ...(options.gather ? { gather: true as const } : {}) };
  return EventPattern<Record<string, unknown>>(
    route as unknown as Record<string, unknown>,
    route as unknown as Record<string, unknown>,
  );
};
