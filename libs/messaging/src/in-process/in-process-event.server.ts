import type { EventEnvelope } from '@herald/contracts';
import type { ConsumerRegistry } from '../consumer/consumer-registry.js';
import type { TopicHandler } from '../consumer/event-processor.js';
import { HeraldEventServer } from '../consumer/herald-event.server.js';
import type { InProcessBus } from './in-process-bus.js';

/** Nest transport of standalone mode: serves `OnEvent` handlers from the in-process bus. */
export class InProcessEventServer extends HeraldEventServer {
  /** topic → each consumer of it with its handlers, resolved once at listen. */
  private readonly routes = new Map<string, { consumer: string; handlers: TopicHandler[] }[]>();

  constructor(
    registry: ConsumerRegistry,
    private readonly bus: InProcessBus,
  ) {
    super(registry);
  }

  listen(callback: () => void): void {
    for (const [consumer, topics] of this.subscriptions()) {
      for (const topic of topics)
        this.routes.set(topic, [
          ...(this.routes.get(topic) ?? []),
          { consumer, handlers: this.handlersFor(topic, consumer) },
        ]);
    }
    this.bus.attach(this);
    callback();
  }

  /**
   * Every consumer applies, in order, the events it subscribes to (each consumer in its own
   * transaction and inbox). The events come from this deployment's outboxes, validated by `create`
   * when they were written, so payloads are not validated a second time.
   */
  async dispatch(envelopes: EventEnvelope[]): Promise<void> {
    const perConsumer = new Map<string, { events: EventEnvelope[]; handlers: Map<string, TopicHandler[]> }>();
    for (const e of envelopes) {
      for (const { consumer, handlers } of this.routes.get(e.type) ?? []) {
        const entry = perConsumer.get(consumer) ?? {
          events: [] as EventEnvelope[],
          handlers: new Map<string, TopicHandler[]>(),
        };
        entry.events.push(e);
        entry.handlers.set(e.type, handlers);
        perConsumer.set(consumer, entry);
      }
    }
    await Promise.all(
      [...perConsumer].map(([consumer, { events, handlers }]) =>
        this.registry
          .get(consumer)
          .processBatch(events, (topic) => handlers.get(topic) ?? [], { trusted: true, durableWithPublisher: true }),
      ),
    );
  }

  close(): void {}

  unwrap<T>(): T {
    return this.bus as T;
  }
}
