import type { EventEnvelope } from '@herald/contracts';
import type { EventPublisher } from '../event-publisher.js';

export interface InProcessDispatcher {
  /** Applies the events, in order, for every consumer. */
  dispatch(envelopes: EventEnvelope[]): Promise<void>;
}

/**
 * Standalone mode's event bus (a product feature, not a test double): the outbox relays publish
 * here and the in-process transport delivers to every consumer. `publish` resolves once every
 * consumer has applied (or dead-lettered) each event, so the relay marks rows published only then.
 * Each consumer applies a relayed batch in order, in one transaction (consumers run side by side);
 * one transaction per consumer at a time also means consumers never deadlock on their own rows.
 */
export class InProcessBus implements EventPublisher {
  readonly system = 'herald-in-process';
  private dispatcher?: InProcessDispatcher;
  private attached!: () => void;
  private readonly ready = new Promise<void>((resolve) => (this.attached = resolve));

  attach(dispatcher: InProcessDispatcher): void {
    this.dispatcher = dispatcher;
    this.attached();
  }

  async publish(envelopes: EventEnvelope[]): Promise<void> {
    await this.ready;
    await this.dispatcher!.dispatch(envelopes);
  }

  async check(): Promise<void> {}

  async close(): Promise<void> {}
}
