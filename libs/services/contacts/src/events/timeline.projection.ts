import { newId } from '@herald/core';
import type { EventEnvelope } from '@herald/contracts';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { timelineEntryOf } from './system-events.js';
import { TrackedEvent } from './tracked-event.entity.js';

/**
 * Writes system events into the contacts' timelines (`tracked_events` with `system`), in the
 * caller's transaction (the consumer's, which also records the events in its inbox):
 * - one multi-row insert per delivered run;
 * - the contact is found by id, else by address; an event of no contact (deleted, or a relay
 *   notice for an address that is no contact) is dropped;
 * - an event already projected (same source event id) is skipped: replaying a topic adds nothing.
 * System events are never published as `event.tracked`: analytics' top events only count custom ones.
 */
@Injectable()
export class TimelineProjection {
  async project(m: EntityManager, envelopes: EventEnvelope[]): Promise<number> {
    const rows = envelopes
      .map(timelineEntryOf)
      .filter((e) => e !== undefined)
      .map((e) => ({ ...e, id: newId('evt'), contactId: e.contactId ?? null }));
    if (rows.length === 0) return 0;
    const inserted: unknown[] = await m.query(
      `INSERT INTO ${tableName(m, TrackedEvent)} (id, project_id, contact_id, name, data, created_at, system, source_event_id)
       SELECT x.id, x."projectId", c.id, x.name, x.data, x."occurredAt", true, x."sourceEventId"
         FROM jsonb_to_recordset($1::jsonb) AS x(id varchar, "projectId" varchar, "contactId" varchar, email varchar,
                                                  name varchar, data jsonb, "occurredAt" timestamptz, "sourceEventId" uuid)
         CROSS JOIN LATERAL (
           SELECT c.id FROM ${tableName(m, Contact)} c
            WHERE c.project_id = x."projectId" AND (c.id = x."contactId" OR c.email = x.email)
            ORDER BY c.id = x."contactId" DESC NULLS LAST LIMIT 1
         ) c
       ON CONFLICT (source_event_id) DO NOTHING RETURNING 1`,
      [JSON.stringify(rows)],
    );
    return inserted.length;
  }
}
