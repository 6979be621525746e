import type { EventEnvelope } from '@herald/contracts';
import type { ConsumerRegistry } from '../consumer/consumer-registry.js';
import type { EventHandlerFn } from '../consumer/event-processor.js';
import { HeraldEventServer } from '../consumer/herald-event.server.js';
import type { InProcessBus } from './in-process-bus.js';

/** Nest transport of standalone mode: serves `OnEvent` handlers from the in-process bus. */
export class InProcessEventServer extends HeraldEventServer {
  /** topic → each consumer of it with its handlers, resolved once at listen. */
  private readonly routes = new Map<string, { consumer: string; handlers: EventHandlerFn[] }[]>();

  constructor(
    registry: ConsumerRegistry,
    private readonly bus: InProcessBus,
  ) {
    super(registry);
  }

  listen(callback: () => void): void {
    for (const [consumer, topics] of this.subscriptions()) {
      for (const topic of topics) this.routes.set(topic, [...(this.routes.get(topic) ?? []), { consumer, handlers: this.handlersFor(topic, consumer) }]);
    }
    this.bus.attach(this);
    callback();
  }

  /** Every consumer of the topic applies the event (each in its own transaction and inbox). */
  async dispatch(envelope: EventEnvelope): Promise<void> {
    const consumers = this.routes.get(envelope.type) ?? [];
    await Promise.all(consumers.map(({ consumer, handlers }) => this.registry.get(consumer).process(envelope, handlers)));
  }

  close(): void {}

  unwrap<T>(): T {
    return this.bus as T;
  }
}
