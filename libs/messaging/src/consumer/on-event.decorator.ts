import { EventPattern } from '@nestjs/microservices';

/** What an `OnEvent` registration carries: the topic, and the consumer (service) that handles it. */
export interface EventRoute {
  consumer: string;
  topic: string;
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
  EventPattern<Record<string, string>>({ consumer, topic } satisfies EventRoute, { consumer, topic } satisfies EventRoute);
