import type { EventEnvelope } from '@herald/contracts';
import type { EventPublisher } from '../event-publisher.js';

export interface InProcessDispatcher {
  /** Applies the events, in order, for every consumer. */
  dispatch(envelopes: EventEnvelope[]): Promise<void>;
}

const LANES = 8;

const laneOf = (key: string): number => {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
  return Math.abs(h) % LANES;
};

/**
 * Standalone mode's event bus (a product feature, not a test double): the outbox relays publish
 * here and the in-process transport delivers to every consumer. `publish` resolves once every
 * consumer has applied (or dead-lettered) each event, so the relay marks rows published only then.
 * Events with the same key keep their order; different keys run in parallel lanes.
 */
export class InProcessBus implements EventPublisher {
  private dispatcher?: InProcessDispatcher;
  private attached!: () => void;
  private readonly ready = new Promise<void>((resolve) => (this.attached = resolve));

  attach(dispatcher: InProcessDispatcher): void {
    this.dispatcher = dispatcher;
    this.attached();
  }

  async publish(envelopes: EventEnvelope[]): Promise<void> {
    await this.ready;
    const lanes = new Map<number, EventEnvelope[]>();
    for (const e of envelopes) {
      const lane = laneOf(e.key);
      lanes.set(lane, [...(lanes.get(lane) ?? []), e]);
    }
    await Promise.all([...lanes.values()].map((lane) => this.dispatcher!.dispatch(lane)));
  }

  async check(): Promise<void> {}

  async close(): Promise<void> {}
}
