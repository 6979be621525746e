import { isReservedEventName, RESERVED_DATA_KEYS } from '@herald/contact-data';
import { EventTracked } from '@herald/contracts';
import { newId } from '@herald/core';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { validationFailed } from '@herald/http';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ContactWriter } from '../contacts/contact-writer.js';
import { CONTACTS } from '../consumer.js';
import type { TrackEventDto } from './track-event.dto.js';
import { TrackedEvent } from './tracked-event.entity.js';

export interface TrackEventResult {
  contact: string;
  event: string;
  timestamp: string;
}

/** The event's own data: what was sent, with non-persistent values unwrapped and reserved keys dropped. */
export function eventDataOf(data: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data ?? {})) {
    if (RESERVED_DATA_KEYS.includes(key) || value === undefined) continue;
    const wrapped = value !== null && typeof value === 'object' && !Array.isArray(value) && 'value' in value && 'persistent' in value;
    out[key] = wrapped ? (value as { value: unknown }).value : value;
  }
  return out;
}

/**
 * Records a named event for a contact: the contact is upserted through the one write path (data
 * rules, field registry, contact.* events), the event is stored, and `event.tracked` (with the
 * event data, non-persistent values included) goes out through the outbox in the same transaction.
 */
@Injectable()
export class TrackEventUseCase {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectOutbox(CONTACTS) private readonly outbox: Outbox,
    private readonly writer: ContactWriter,
  ) {}

  async execute(projectId: string, dto: TrackEventDto, correlationId?: string): Promise<TrackEventResult> {
    if (isReservedEventName(dto.event)) {
      throw validationFailed([{ field: 'event', message: `${dto.event} is reserved for events Herald emits itself (email.*, contact.subscribed, contact.unsubscribed, segment.*)`, code: 'invalid_string' }]);
    }
    const eventData = eventDataOf(dto.data);
    return this.db.transaction(async (m) => {
      const write = await this.writer.upsert(m, { projectId, subscribedIfNew: true, reason: 'track', correlationId }, { email: dto.email, subscribed: dto.subscribed, data: dto.data });
      const id = newId('evt');
      const now = new Date();
      await m.insert(TrackedEvent, { id, projectId, contactId: write.contact.id, name: dto.event, data: eventData as never, createdAt: now });
      await this.outbox.add(
        m,
        EventTracked.create({
          projectId,
          source: CONTACTS,
          occurredAt: now,
          ...(correlationId ? { correlationId } : {}),
          payload: { eventRecordId: id, contactId: write.contact.id, email: write.contact.email, name: dto.event, data: eventData },
        }),
      );
      return { contact: write.contact.id, event: id, timestamp: now.toISOString() };
    });
  }
}
