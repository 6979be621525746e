import { isReservedEventName } from '@herald/contact-data';
import { DomainError, notFoundError } from '@herald/core';
import type { CursorPage, CursorQueryDto } from '@herald/http';
import { InjectReferences, type ReferenceDirectory, type Usage } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ContactStore } from '../contacts/contacts.store.js';
import { CONTACTS } from '../consumer.js';
import { TrackedEventsStore, type TrackedEventView } from './tracked-events.store.js';

export type { TrackedEventView } from './tracked-events.store.js';

export interface EventStats {
  total: number;
  last24Hours: number;
  events: { name: string; count: number; lastSeenAt: string }[];
}

/** Reading a project's timeline (custom and system events) and deleting custom events by name. */
@Injectable()
export class EventsService {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectReferences(CONTACTS) private readonly references: ReferenceDirectory,
    private readonly events: TrackedEventsStore,
    private readonly contacts: ContactStore,
  ) {}

  list(projectId: string, q: CursorQueryDto): Promise<CursorPage<TrackedEventView>> {
    return this.events.page(this.db, projectId, q);
  }

  async forContact(projectId: string, contactId: string, q: CursorQueryDto): Promise<CursorPage<TrackedEventView>> {
    if (!(await this.contacts.exists(this.db, projectId, contactId))) throw notFoundError('Contact', contactId);
    return this.events.page(this.db, projectId, q, contactId);
  }

  /** Custom events only: system events are Herald's record, not the project's events. */
  async stats(projectId: string): Promise<EventStats> {
    const rows = await this.events.counts(this.db, projectId);
    const events = rows.map((r) => ({
      name: r.name,
      count: Number(r.count),
      lastSeenAt: new Date(r.last).toISOString(),
    }));
    return {
      total: events.reduce((n, e) => n + e.count, 0),
      last24Hours: rows.reduce((n, r) => n + Number(r.recent), 0),
      events,
    };
  }

  /** Names of custom events (system event names are a fixed list: docs/contacts.md). */
  async names(projectId: string): Promise<{ names: string[] }> {
    return { names: await this.events.names(this.db, projectId) };
  }

  usageOf(projectId: string, eventName: string): Promise<Usage> {
    return this.references.usage(projectId, 'event', eventName);
  }

  /** Deletes every custom event with that name; a system event name is refused (the timeline is a record). */
  async deleteByName(projectId: string, name: string): Promise<{ deleted: number }> {
    if (isReservedEventName(name))
      throw new DomainError(
        'invalid',
        'SYSTEM_EVENT_NOT_DELETABLE',
        `${name} is a system event name: Herald records these events itself and does not delete them`,
        {
          errors: [{ field: 'eventName', message: `${name} is a system event name`, code: 'system_event' }],
          suggestion: 'Only custom events (tracked through /v1/track) can be deleted by name.',
        },
      );
    return { deleted: await this.events.deleteByName(this.db, projectId, name) };
  }
}
