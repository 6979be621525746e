import { isReservedEventName } from '@herald/contact-data';
import { DomainError, notFoundError } from '@herald/core';
import { keysetPage, type CursorPage, type CursorQueryDto } from '@herald/http';
import { InjectReferences, type ReferenceDirectory, type Usage } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { CONTACTS } from '../consumer.js';
import { TrackedEvent } from './tracked-event.entity.js';

export interface TrackedEventView {
  id: string;
  name: string;
  contactId: string;
  data: Record<string, unknown>;
  /** Recorded by Herald (email.*, contact.subscribed, contact.unsubscribed), not through /v1/track. */
  system: boolean;
  createdAt: string;
}

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
  ) {}

  list(projectId: string, q: CursorQueryDto): Promise<CursorPage<TrackedEventView>> {
    return this.page(projectId, q, []);
  }

  async forContact(projectId: string, contactId: string, q: CursorQueryDto): Promise<CursorPage<TrackedEventView>> {
    if (!(await this.db.getRepository(Contact).existsBy({ projectId, id: contactId })))
      throw notFoundError('Contact', contactId);
    return this.page(projectId, q, [['contact_id', contactId]]);
  }

  /** Custom events only: system events are Herald's record, not the project's events. */
  async stats(projectId: string): Promise<EventStats> {
    const table = tableName(this.db, TrackedEvent);
    const rows: { name: string; count: string; last: Date; recent: string }[] = await this.db.query(
      `SELECT name, count(*) AS count, max(created_at) AS last, count(*) FILTER (WHERE created_at > now() - interval '24 hours') AS recent
         FROM ${table} WHERE project_id = $1 AND NOT system GROUP BY name ORDER BY count(*) DESC, name`,
      [projectId],
    );
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
    const rows: { name: string }[] = await this.db.query(
      `SELECT DISTINCT name FROM ${tableName(this.db, TrackedEvent)} WHERE project_id = $1 AND NOT system ORDER BY name`,
      [projectId],
    );
    return { names: rows.map((r) => r.name) };
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
    const [, count] = (await this.db.query(
      `DELETE FROM ${tableName(this.db, TrackedEvent)} WHERE project_id = $1 AND name = $2 AND NOT system`,
      [projectId, name],
    )) as [unknown, number];
    return { deleted: count };
  }

  private async page(
    projectId: string,
    q: CursorQueryDto,
    extra: [string, string][],
  ): Promise<CursorPage<TrackedEventView>> {
    const page = await keysetPage(this.db, q, {
      table: tableName(this.db, TrackedEvent),
      columns: 'id, name, contact_id, data, system, created_at',
      filters: ['project_id = $1', ...extra.map(([col], i) => `${col} = $${i + 2}`)],
      params: [projectId, ...extra.map(([, v]) => v)],
    });
    return {
      ...page,
      data: page.data.map((r) => ({
        id: r.id as string,
        name: r.name as string,
        contactId: r.contact_id as string,
        data: r.data as Record<string, unknown>,
        system: r.system as boolean,
        createdAt: new Date(r.created_at as Date).toISOString(),
      })),
    };
  }
}
