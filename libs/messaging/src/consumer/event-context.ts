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
