import { isReservedEventName, RESERVED_DATA_KEYS } from '@herald/contact-data';
import { EventTracked, type EventEnvelope } from '@herald/contracts';
import { currentTraceparent, invalidInput, MicroBatcher, newId, settle } from '@herald/core';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { IdempotentRequests, WriteConflict } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { ContactWriter, type ContactInput, type ContactWrite, type WriteContext } from '../contacts/contact-writer.js';
import { CONTACTS } from '../consumer.js';
import type { TrackEventDto } from './track-event.dto.js';
import { countTrackBatch, type TrackWritePath } from './track-metrics.js';
import { TrackedEventsStore, type TrackedRow } from './tracked-events.store.js';

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
    const wrapped =
      value !== null && typeof value === 'object' && !Array.isArray(value) && 'value' in value && 'persistent' in value;
    out[key] = wrapped ? (value as { value: unknown }).value : value;
  }
  return out;
}

interface PendingTrack {
  projectId: string;
  dto: TrackEventDto;
  correlationId?: string;
  /** The request's trace, taken when it joins the batch (which runs in another request's context). */
  traceparent?: string;
}

/**
 * Records a named event for a contact: the contact is upserted through the one write path (data
 * rules, field registry, contact.* events), the event is stored, and `event.tracked` (with the
 * event data, non-persistent values included) goes out through the outbox, all in one commit.
 *
 * Group commit: requests that arrive while earlier ones are being written wait (at most one
 * event-loop turn when idle) and are written together, up to 200 requests, two writes at a time.
 * A batch is written in two round trips: the contacts are read without locks, then one statement
 * writes contacts, events and outbox, guarded on those contacts being unchanged
 * (`ContactWriter.upsertManyAtomically`). When another writer got there first, the batch is
 * written again in a transaction that locks its contacts; when that fails too (one request's data
 * too large, a contact created concurrently) it is written request by request, so one bad request
 * never fails another. The events' SQL is the TrackedEventsStore's.
 */
@Injectable()
export class TrackEventUseCase {
  private readonly batcher = new MicroBatcher<PendingTrack, TrackEventResult>((batch) => this.write(batch), {
    maxBatch: 200,
    maxConcurrent: 2,
  });

  private readonly idempotent: IdempotentRequests;

  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectOutbox(CONTACTS) private readonly outbox: Outbox,
    private readonly writer: ContactWriter,
    private readonly events: TrackedEventsStore,
  ) {
    this.idempotent = new IdempotentRequests(db);
  }

  /**
   * With an `Idempotency-Key` (as /v1/send's: 24 hours per project, the first answer replayed, 409
   * for another body or while the first runs), the request is claimed first and then joins the
   * batches like any other; without one, it goes straight to the batches.
   */
  execute(
    projectId: string,
    dto: TrackEventDto,
    correlationId?: string,
    idempotencyKey?: string,
  ): Promise<TrackEventResult> {
    if (isReservedEventName(dto.event)) {
      throw invalidInput([
        {
          field: 'event',
          message: `${dto.event} is reserved for events Herald emits itself (email.*, contact.subscribed, contact.unsubscribed, segment.*)`,
          code: 'invalid_string',
        },
      ]);
    }
    const submit = () => {
      const traceparent = currentTraceparent();
      return this.batcher.submit({ projectId, dto, correlationId, ...(traceparent ? { traceparent } : {}) });
    };
    return idempotencyKey === undefined ? submit() : this.idempotent.run(projectId, idempotencyKey, dto, submit);
  }

  private async write(batch: PendingTrack[]): Promise<PromiseSettledResult<TrackEventResult>[]> {
    const results: PromiseSettledResult<TrackEventResult>[] = new Array(batch.length);
    const byProject = new Map<string, number[]>();
    batch.forEach((p, i) => byProject.set(p.projectId, [...(byProject.get(p.projectId) ?? []), i]));
    for (const [projectId, indexes] of byProject) {
      const written = await this.writeProject(
        projectId,
        indexes.map((i) => batch[i]!),
      );
      indexes.forEach((i, k) => (results[i] = written[k]!));
    }
    return results;
  }

  /** The requests of one project: optimistically, then locking, then one by one (see the class). */
  private async writeProject(
    projectId: string,
    batch: PendingTrack[],
  ): Promise<PromiseSettledResult<TrackEventResult>[]> {
    const fulfilled = (path: TrackWritePath, values: TrackEventResult[]) => {
      countTrackBatch(path, batch.length);
      return values.map((value): PromiseSettledResult<TrackEventResult> => ({ status: 'fulfilled', value }));
    };
    try {
      return fulfilled('single_statement', await this.writeAtomically(projectId, batch));
    } catch (err) {
      if (!(err instanceof WriteConflict))
        return batch.length === 1 ? [{ status: 'rejected', reason: err }] : this.writeOneByOne(batch);
    }
    if (batch.length === 1) return this.writeOneByOne(batch);
    try {
      return fulfilled('locked', await this.db.transaction((m) => this.writeLocked(m, projectId, batch)));
    } catch {
      return this.writeOneByOne(batch);
    }
  }

  private async writeOneByOne(batch: PendingTrack[]): Promise<PromiseSettledResult<TrackEventResult>[]> {
    countTrackBatch('one_by_one', batch.length);
    const results: PromiseSettledResult<TrackEventResult>[] = [];
    for (const p of batch) results.push(await settle(() => this.executeOne(p)));
    return results;
  }

  /** The batch as one guarded statement (contacts, events, outbox); throws `WriteConflict` when its contacts changed meanwhile. */
  private async writeAtomically(projectId: string, batch: PendingTrack[]): Promise<TrackEventResult[]> {
    const now = new Date();
    let rows: TrackedRow[] = [];
    await this.writer.upsertManyAtomically(this.db, projectId, this.itemsOf(projectId, batch), {
      alsoWrite: (writes, write) => {
        rows = this.eventRowsOf(batch, writes);
        write.with('tracked', this.events.insertTrackedSql(this.db, write.param, projectId, rows, now));
        return this.eventTrackedOf(projectId, batch, writes, rows, now);
      },
    });
    return rows.map((r) => ({ contact: r.contactId, event: r.id, timestamp: now.toISOString() }));
  }

  /** The batch in a transaction that locks its contacts. */
  private async writeLocked(m: EntityManager, projectId: string, batch: PendingTrack[]): Promise<TrackEventResult[]> {
    const now = new Date();
    let rows: TrackedRow[] = [];
    await this.writer.upsertMany(m, projectId, this.itemsOf(projectId, batch), (writes) => {
      rows = this.eventRowsOf(batch, writes);
      return this.eventTrackedOf(projectId, batch, writes, rows, now);
    });
    await this.events.insertTracked(m, projectId, rows, now);
    return rows.map((r) => ({ contact: r.contactId, event: r.id, timestamp: now.toISOString() }));
  }

  private itemsOf(projectId: string, batch: PendingTrack[]): { input: ContactInput; ctx: WriteContext }[] {
    return batch.map(({ dto, correlationId, traceparent }) => ({
      input: { email: dto.email, subscribed: dto.subscribed, data: dto.data },
      ctx: { projectId, subscribedIfNew: true, reason: 'track', correlationId, traceparent },
    }));
  }

  private eventRowsOf(batch: PendingTrack[], writes: ContactWrite[]): TrackedRow[] {
    return batch.map(({ dto }, k) => ({
      id: newId('evt'),
      contactId: writes[k]!.contact.id,
      name: dto.event,
      data: eventDataOf(dto.data),
    }));
  }

  /** `event.tracked` of each request, published after the contact events of the same write. */
  private eventTrackedOf(
    projectId: string,
    batch: PendingTrack[],
    writes: ContactWrite[],
    rows: TrackedRow[],
    now: Date,
  ): EventEnvelope[] {
    return batch.map(({ correlationId, traceparent }, k) =>
      EventTracked.create({
        projectId,
        source: CONTACTS,
        occurredAt: now,
        ...(correlationId ? { correlationId } : {}),
        ...(traceparent ? { traceparent } : {}),
        payload: {
          eventRecordId: rows[k]!.id,
          contactId: rows[k]!.contactId,
          email: writes[k]!.contact.email,
          name: rows[k]!.name,
          data: rows[k]!.data,
        },
      }),
    );
  }

  /** One request in its own transaction. */
  private async executeOne({ projectId, dto, correlationId, traceparent }: PendingTrack): Promise<TrackEventResult> {
    const eventData = eventDataOf(dto.data);
    return this.db.transaction(async (m) => {
      const write = await this.writer.upsert(
        m,
        { projectId, subscribedIfNew: true, reason: 'track', correlationId, traceparent },
        { email: dto.email, subscribed: dto.subscribed, data: dto.data },
      );
      const id = newId('evt');
      const now = new Date();
      await this.events.insertOne(m, {
        id,
        projectId,
        contactId: write.contact.id,
        name: dto.event,
        data: eventData,
        createdAt: now,
      });
      await this.outbox.add(
        m,
        EventTracked.create({
          projectId,
          source: CONTACTS,
          occurredAt: now,
          ...(correlationId ? { correlationId } : {}),
          ...(traceparent ? { traceparent } : {}),
          payload: {
            eventRecordId: id,
            contactId: write.contact.id,
            email: write.contact.email,
            name: dto.event,
            data: eventData,
          },
        }),
      );
      return { contact: write.contact.id, event: id, timestamp: now.toISOString() };
    });
  }
}
