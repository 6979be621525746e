import { isReservedEventName, RESERVED_DATA_KEYS } from '@herald/contact-data';
import { EventTracked } from '@herald/contracts';
import { MicroBatcher, newId, settle } from '@herald/core';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { validationFailed } from '@herald/http';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { tableName } from '@herald/persistence';
import type { EntityManager } from 'typeorm';
import { ConcurrentCreate, ContactWriter } from '../contacts/contact-writer.js';
import type { Contact } from '../contacts/contact.entity.js';
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

interface PendingTrack {
  projectId: string;
  dto: TrackEventDto;
  correlationId?: string;
}

/**
 * Records a named event for a contact: the contact is upserted through the one write path (data
 * rules, field registry, contact.* events), the event is stored, and `event.tracked` (with the
 * event data, non-persistent values included) goes out through the outbox in the same transaction.
 *
 * Group commit: requests that arrive while earlier ones are being written wait (at most one
 * event-loop turn when idle) and are written together — one transaction, a few multi-row
 * statements, up to 200 requests, two transactions at a time — so the database does a handful of
 * statements per batch instead of six per event. A batch that fails (one request's data too
 * large, a contact created concurrently) is written again request by request, so one bad request
 * never fails another.
 */
@Injectable()
export class TrackEventUseCase {
  private readonly batcher = new MicroBatcher<PendingTrack, TrackEventResult>((batch) => this.write(batch), { maxBatch: 200, maxConcurrent: 2 });

  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectOutbox(CONTACTS) private readonly outbox: Outbox,
    private readonly writer: ContactWriter,
  ) {}

  execute(projectId: string, dto: TrackEventDto, correlationId?: string): Promise<TrackEventResult> {
    if (isReservedEventName(dto.event)) {
      throw validationFailed([{ field: 'event', message: `${dto.event} is reserved for events Herald emits itself (email.*, contact.subscribed, contact.unsubscribed, segment.*)`, code: 'invalid_string' }]);
    }
    return this.batcher.submit({ projectId, dto, correlationId });
  }

  private async write(batch: PendingTrack[]): Promise<PromiseSettledResult<TrackEventResult>[]> {
    try {
      const results = batch.length === 1 ? [await this.executeOne(batch[0]!)] : await this.db.transaction((m) => this.writeBatch(m, batch));
      return results.map((value) => ({ status: 'fulfilled', value }));
    } catch (err) {
      if (batch.length === 1 && !(err instanceof ConcurrentCreate)) return [{ status: 'rejected', reason: err }];
      const results: PromiseSettledResult<TrackEventResult>[] = [];
      for (const p of batch) results.push(await settle(() => this.executeOne(p)));
      return results;
    }
  }

  /** A batch in one transaction: contacts through the writer's batch upsert, events in one insert. */
  private async writeBatch(m: EntityManager, batch: PendingTrack[]): Promise<TrackEventResult[]> {
    const results: TrackEventResult[] = new Array(batch.length);
    const byProject = new Map<string, number[]>();
    batch.forEach((p, i) => byProject.set(p.projectId, [...(byProject.get(p.projectId) ?? []), i]));
    const now = new Date();
    for (const [projectId, indexes] of byProject) {
      const rows: { id: string; contact: Contact; dto: TrackEventDto; data: Record<string, unknown> }[] = [];
      await this.writer.upsertMany(
        m,
        projectId,
        indexes.map((i) => ({
          input: { email: batch[i]!.dto.email, subscribed: batch[i]!.dto.subscribed, data: batch[i]!.dto.data },
          ctx: { projectId, subscribedIfNew: true, reason: 'track', correlationId: batch[i]!.correlationId },
        })),
        // event.tracked of each request, in the same outbox insert as the contact events
        (writes) =>
          indexes.map((i, k) => {
            const row = { id: newId('evt'), contact: writes[k]!.contact, dto: batch[i]!.dto, data: eventDataOf(batch[i]!.dto.data) };
            rows.push(row);
            const correlationId = batch[i]!.correlationId;
            return EventTracked.create({
              projectId,
              source: CONTACTS,
              occurredAt: now,
              ...(correlationId ? { correlationId } : {}),
              payload: { eventRecordId: row.id, contactId: row.contact.id, email: row.contact.email, name: row.dto.event, data: row.data },
            });
          }),
      );
      await m.query(
        `INSERT INTO ${tableName(m, TrackedEvent)} (id, project_id, contact_id, name, data, created_at)
         SELECT id, $1, contact_id, name, data, $6 FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::jsonb[]) AS x(id, contact_id, name, data)`,
        [projectId, rows.map((r) => r.id), rows.map((r) => r.contact.id), rows.map((r) => r.dto.event), rows.map((r) => JSON.stringify(r.data)), now],
      );
      indexes.forEach((i, k) => (results[i] = { contact: rows[k]!.contact.id, event: rows[k]!.id, timestamp: now.toISOString() }));
    }
    return results;
  }

  /** One request in its own transaction. */
  private async executeOne({ projectId, dto, correlationId }: PendingTrack): Promise<TrackEventResult> {
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
