import type { EventEnvelope } from '@herald/contracts';
import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { ConsumerRegistry } from './consumer-registry.js';
import type { EventBatchContext, EventContext } from './event-context.js';
import type { TopicHandler } from './event-processor.js';
import type { EventRoute } from './on-event.decorator.js';

/**
 * Shared part of Herald's two Nest transports: reading the `OnEvent` handlers Nest registered (one
 * pattern per consumer and topic; several methods of one consumer for one topic are chained by Nest
 * and run together when the head is called) and calling them.
 */
export abstract class HeraldEventServer extends Server implements CustomTransportStrategy {
  constructor(protected readonly registry: ConsumerRegistry) {
    super();
  }

  private registrations(): { route: EventRoute; head: MessageHandler }[] {
    const result: { route: EventRoute; head: MessageHandler }[] = [];
    for (const head of this.messageHandlers.values()) {
      const route = head.extras as Partial<EventRoute> | undefined;
      if (route?.consumer && route.topic && this.registry.has(route.consumer)) {
        result.push({
          route: {
            consumer: route.consumer,
            topic: route.topic,
            ...(route.batch ? { batch: true as const } : {}),
            ...(route.gather ? { gather: true as const } : {}),
          },
          head,
        });
      }
    }
    return result;
  }

  /** consumer name → topics it handles, for consumers hosted in this process. */
  protected subscriptions(): Map<string, string[]> {
    const result = new Map<string, string[]>();
    for (const { route } of this.registrations()) {
      const topics = result.get(route.consumer) ?? [];
      if (!topics.includes(route.topic)) result.set(route.consumer, [...topics, route.topic]);
    }
    for (const [consumer, topics] of result) this.registry.subscribe(consumer, topics);
    return result;
  }

  /** The consumer's handlers for the topic: its per-event one and its batch one (Nest runs the chained siblings of each with it). */
  protected handlersFor(topic: string, consumer: string): TopicHandler[] {
    const call = async (head: MessageHandler, data: unknown, ctx: unknown): Promise<void> => {
      const result: unknown = await head(data, ctx);
      if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
    };
    return this.registrations()
      .filter(({ route }) => route.topic === topic && route.consumer === consumer)
      .map(({ route, head }): TopicHandler =>
        route.batch
          ? {
              batch: (envelopes: EventEnvelope[], ctx: EventBatchContext) => call(head, envelopes, ctx),
              ...(route.gather ? { gather: true } : {}),
            }
          : (envelope: EventEnvelope, ctx: EventContext) => call(head, envelope, ctx),
      );
  }

  on(): never {
    throw new Error('HeraldEventServer does not expose transport events');
  }
}
