import type { EventEnvelope } from '@herald/contracts';
import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { ConsumerRegistry } from './consumer-registry.js';
import type { EventContext } from './event-context.js';
import type { EventHandlerFn } from './event-processor.js';

/**
 * Shared part of Herald's two Nest transports: reading the `@EventPattern` handlers Nest registered
 * (several services may handle one topic; Nest chains them through `next`), grouping them by
 * consumer, and calling them.
 */
export abstract class HeraldEventServer extends Server implements CustomTransportStrategy {
  constructor(protected readonly registry: ConsumerRegistry) {
    super();
  }

  /** consumer name → topics it handles, for consumers hosted in this process. */
  protected subscriptions(): Map<string, string[]> {
    const result = new Map<string, string[]>();
    for (const [topic, first] of this.messageHandlers) {
      for (let h: MessageHandler | undefined = first; h; h = h.next as MessageHandler | undefined) {
        const consumer = (h.extras as { consumer?: string } | undefined)?.consumer;
        if (!consumer || !this.registry.has(consumer)) continue;
        const topics = result.get(consumer) ?? [];
        if (!topics.includes(topic)) topics.push(topic);
        result.set(consumer, topics);
      }
    }
    return result;
  }

  protected handlersFor(topic: string, consumer: string): EventHandlerFn[] {
    const handlers: EventHandlerFn[] = [];
    for (let h: MessageHandler | undefined = this.messageHandlers.get(topic); h; h = h.next as MessageHandler | undefined) {
      if ((h.extras as { consumer?: string } | undefined)?.consumer !== consumer) continue;
      const handler = h;
      handlers.push(async (envelope: EventEnvelope, ctx: EventContext) => {
        const result: unknown = await handler(envelope, ctx);
        if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
      });
    }
    return handlers;
  }

  on(): never {
    throw new Error('HeraldEventServer does not expose transport events');
  }
}
