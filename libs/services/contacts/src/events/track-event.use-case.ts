import { ContactCreated, EventTracked, type EventEnvelope } from '@herald/contracts';
import { newId } from '@herald/core';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { CONTACTS } from '../consumer.js';
import type { TrackEventDto } from './track-event.dto.js';
import { TrackedEvent } from './tracked-event.entity.js';

export interface TrackEventResult {
  contact: string;
  event: string;
  timestamp: string;
}

/**
 * Records a named event for a contact, creating the contact when new, and publishes
 * `event.tracked` (and `contact.created`) through the outbox in the same transaction.
 * (Issue #4 brings the full contact data rules; here data is patched key by key.)
 */
@Injectable()
export class TrackEventUseCase {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectOutbox(CONTACTS) private readonly outbox: Outbox,
  ) {}

  async execute(projectId: string, dto: TrackEventDto, correlationId?: string): Promise<TrackEventResult> {
    const email = dto.email.trim().toLowerCase();
    const data = dto.data ?? {};
    return this.db.transaction(async (manager) => {
      const rows: { id: string; created: boolean; subscribed: boolean; data: Record<string, unknown> }[] = await manager.query(
        `INSERT INTO ${tableName(manager, Contact)} AS c (id, project_id, email, subscribed, data)
         VALUES ($1, $2, $3, $4, $5::jsonb)
         ON CONFLICT (project_id, email) DO UPDATE
           SET data = c.data || EXCLUDED.data,
               subscribed = COALESCE($6, c.subscribed),
               updated_at = now()
         RETURNING id, (xmax = 0) AS created, subscribed, data`,
        [newId('cnt'), projectId, email, dto.subscribed ?? true, JSON.stringify(data), dto.subscribed ?? null],
      );
      const contact = rows[0]!;
      const eventId = newId('evt');
      const now = new Date();
      await manager.insert(TrackedEvent, { id: eventId, projectId, contactId: contact.id, name: dto.event, data: data as never, createdAt: now });
      const meta = { projectId, source: CONTACTS, occurredAt: now, ...(correlationId ? { correlationId } : {}) };
      const events: EventEnvelope[] = [EventTracked.create({ ...meta, payload: { eventRecordId: eventId, contactId: contact.id, email, name: dto.event, data } })];
      if (contact.created) {
        events.unshift(ContactCreated.create({ ...meta, payload: { contactId: contact.id, email, subscribed: contact.subscribed, data: contact.data } }));
      }
      await this.outbox.add(manager, ...events);
      return { contact: contact.id, event: eventId, timestamp: now.toISOString() };
    });
  }
}
