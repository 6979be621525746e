import { EventPattern } from '@nestjs/microservices';

/**
 * Marks a controller method as the handler of `topic` for `consumer` (the owning service). It is a
 * plain `@EventPattern`, served by the Kafka transport in distributed mode and by the in-process
 * transport in standalone mode; the consumer name picks the service's inbox, transaction and
 * Kafka consumer group. Use with `@Payload() envelope: EventEnvelope<P>` and `@Ctx() ctx: EventContext`.
 */
export const OnEvent = (consumer: string, topic: string): MethodDecorator => EventPattern<string>(topic, { consumer });
