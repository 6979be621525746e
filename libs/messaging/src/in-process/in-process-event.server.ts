import type { EventEnvelope } from '@herald/contracts';
import type { ConsumerRegistry } from '../consumer/consumer-registry.js';
import { HeraldEventServer } from '../consumer/herald-event.server.js';
import type { InProcessBus } from './in-process-bus.js';

/** Nest transport of standalone mode: serves `@EventPattern` handlers from the in-process bus. */
export class InProcessEventServer extends HeraldEventServer {
  constructor(
    registry: ConsumerRegistry,
    private readonly bus: InProcessBus,
  ) {
    super(registry);
  }

  private routes = new Map<string, string[]>();

  listen(callback: () => void): void {
    for (const [consumer, topics] of this.subscriptions()) {
      for (const topic of topics) this.routes.set(topic, [...(this.routes.get(topic) ?? []), consumer]);
    }
    this.bus.attach(this);
    callback();
  }

  async dispatch(envelope: EventEnvelope): Promise<void> {
    const consumers = this.routes.get(envelope.type) ?? [];
    await Promise.all(consumers.map((c) => this.registry.get(c).process(envelope, this.handlersFor(envelope.type, c))));
  }

  close(): void {}

  unwrap<T>(): T {
    return this.bus as T;
  }
}
