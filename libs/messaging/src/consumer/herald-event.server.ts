import type { EventEnvelope } from '@herald/contracts';
import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { ConsumerRegistry } from './consumer-registry.js';
import type { EventContext } from './event-context.js';
import type { EventHandlerFn } from './event-processor.js';
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
      if (route?.consumer && route.topic && this.registry.has(route.consumer)) result.push({ route: { consumer: route.consumer, topic: route.topic }, head });
    }
    return result;
  }

  /** consumer name → topics it handles, for consumers hosted in this process. */
  protected subscriptions(): Map<string, string[]> {
    const result = new Map<string, string[]>();
    for (const { route } of this.registrations()) result.set(route.consumer, [...(result.get(route.consumer) ?? []), route.topic]);
    return result;
  }

  /** The consumer's handler for the topic (Nest runs its chained siblings with it). */
  protected handlersFor(topic: string, consumer: string): EventHandlerFn[] {
    return this.registrations()
      .filter(({ route }) => route.topic === topic && route.consumer === consumer)
      .map(({ head }) => async (envelope: EventEnvelope, ctx: EventContext) => {
        const result: unknown = await head(envelope, ctx);
        if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
      });
  }

  on(): never {
    throw new Error('HeraldEventServer does not expose transport events');
  }
}
