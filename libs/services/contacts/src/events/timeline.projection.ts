import { newId } from '@herald/core';
import type { EventEnvelope } from '@herald/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { timelineEntryOf } from './system-events.js';
import { TrackedEventsStore } from './tracked-events.store.js';

/**
 * Writes system events into the contacts' timelines (`tracked_events` with `system`), in the
 * caller's transaction (the consumer's, which also records the events in its inbox):
 * - one multi-row insert per delivered run (`TrackedEventsStore.insertSystem`);
 * - the contact is found by id, else by address; an event of no contact (deleted, or a relay
 *   notice for an address that is no contact) is dropped;
 * - an event already projected (same source event id) is skipped: replaying a topic adds nothing.
 * System events are never published as `event.tracked`: analytics' top events only count custom ones.
 */
@Injectable()
export class TimelineProjection {
  constructor(private readonly store: TrackedEventsStore) {}

  async project(m: EntityManager, envelopes: EventEnvelope[]): Promise<number> {
    const rows = envelopes
      .map(timelineEntryOf)
      .filter((e) => e !== undefined)
      .map((e) => ({ ...e, id: newId('evt'), contactId: e.contactId ?? null }));
    if (rows.length === 0) return 0;
    return this.store.insertSystem(m, rows);
  }
}
