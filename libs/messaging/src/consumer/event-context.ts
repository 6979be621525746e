import type { EventEnvelope } from '@herald/contracts';
import type { EntityManager } from 'typeorm';

/**
 * What an event handler receives besides the envelope (`@Ctx()`): the transaction its writes must
 * use (so they commit together with the inbox row that marks the event applied), and delivery facts.
 */
export class EventContext {
  constructor(
    readonly envelope: EventEnvelope,
    readonly manager: EntityManager,
    readonly consumer: string,
    readonly attempt: number,
  ) {}
}

/**
 * What a batch handler (`OnEventBatch`) receives besides the envelopes: the transaction that also
 * records every one of them as applied, and delivery facts. `attempt` > 1, or a batch of one, is
 * a retry of events whose batch failed.
 */
export class EventBatchContext {
  constructor(
    readonly envelopes: EventEnvelope[],
    readonly manager: EntityManager,
    readonly consumer: string,
    readonly attempt: number,
  ) {}
}
