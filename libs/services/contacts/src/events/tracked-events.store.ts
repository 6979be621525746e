import { keysetPage, type CursorPage, type CursorQueryDto } from '@herald/http';
import { jsonParam, SqlParams, tableName, type SqlParam } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { TrackedEvent } from '../contacts/tracked-event.entity.js';
import type { TimelineEntry } from './system-events.js';

/** An entry of a timeline as the API shows it. */
export interface TrackedEventView {
  id: string;
  name: string;
  contactId: string;
  data: Record<string, unknown>;
  /** Recorded by Herald (email.*, contact.subscribed, contact.unsubscribed), not through /v1/track. */
  system: boolean;
  createdAt: string;
}

/** A custom event about to be written by /v1/track, with the contact it belongs to. */
export interface TrackedRow {
  id: string;
  contactId: string;
  name: string;
  data: Record<string, unknown>;
}

/** A system event about to enter a timeline, with the id its entry gets. */
export type SystemRow = Omit<TimelineEntry, 'contactId'> & { id: string; contactId: string | null };

/** Per-name counts of a project's custom events (`recent`: in the last 24 hours). */
export interface EventCountRow {
  name: string;
  count: string;
  last: Date;
  recent: string;
}

/**
 * The SQL of contacts' timelines (`tracked_events`): custom events written by /v1/track, system
 * events projected from Herald's topics, and their reads. A contact's timeline is deleted with the
 * contact (`ContactStore.delete`).
 */
@Injectable()
export class TrackedEventsStore {
  /**
   * The insert of a /v1/track batch's events (all at `now`), as a statement or as a part of a
   * single-statement write; its parameters go through `param`.
   */
  insertTrackedSql(
    source: DataSource | EntityManager,
    param: SqlParam,
    projectId: string,
    rows: TrackedRow[],
    now: Date,
  ): string {
    return `INSERT INTO ${tableName(source, TrackedEvent)} (id, project_id, contact_id, name, data, created_at)
      SELECT id, ${param(projectId, 'varchar')}, "contactId", name, data, ${param(now, 'timestamptz')}
        FROM jsonb_to_recordset(${jsonParam(param, rows)}) AS x(id varchar, "contactId" varchar, name varchar, data jsonb)`;
  }

  /** A /v1/track batch's events, in the caller's transaction. */
  async insertTracked(m: EntityManager, projectId: string, rows: TrackedRow[], now: Date): Promise<void> {
    const { param, values } = new SqlParams();
    await m.query(this.insertTrackedSql(m, param, projectId, rows, now), values);
  }

  /** One custom event, in the caller's transaction. */
  async insertOne(m: EntityManager, row: TrackedRow & { projectId: string; createdAt: Date }): Promise<void> {
    await m.insert(TrackedEvent, {
      id: row.id,
      projectId: row.projectId,
      contactId: row.contactId,
      name: row.name,
      data: row.data as never,
      createdAt: row.createdAt,
    });
  }

  /**
   * System events into their contacts' timelines in one insert, in the caller's transaction: each
   * goes to the contact of its id, else of its address, and is dropped when there is none; one
   * already projected (same source event id) is skipped. Answers how many were inserted.
   */
  async insertSystem(m: EntityManager, rows: SystemRow[]): Promise<number> {
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

  /** A project's timeline entries (of one contact, with `contactId`), newest first, keyset-paginated. */
  async page(
    db: DataSource,
    projectId: string,
    q: CursorQueryDto,
    contactId?: string,
  ): Promise<CursorPage<TrackedEventView>> {
    const extra: [string, string][] = contactId === undefined ? [] : [['contact_id', contactId]];
    const page = await keysetPage(db, q, {
      table: tableName(db, TrackedEvent),
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

  /** Per-name counts of a project's custom events, most frequent first. */
  counts(db: DataSource, projectId: string): Promise<EventCountRow[]> {
    const table = tableName(db, TrackedEvent);
    return db.query(
      `SELECT name, count(*) AS count, max(created_at) AS last, count(*) FILTER (WHERE created_at > now() - interval '24 hours') AS recent
         FROM ${table} WHERE project_id = $1 AND NOT system GROUP BY name ORDER BY count(*) DESC, name`,
      [projectId],
    );
  }

  /** Names of a project's custom events, in order. */
  async names(db: DataSource, projectId: string): Promise<string[]> {
    const rows: { name: string }[] = await db.query(
      `SELECT DISTINCT name FROM ${tableName(db, TrackedEvent)} WHERE project_id = $1 AND NOT system ORDER BY name`,
      [projectId],
    );
    return rows.map((r) => r.name);
  }

  /** Deletes a project's custom events of a name: how many. */
  async deleteByName(db: DataSource, projectId: string, name: string): Promise<number> {
    const [, count] = (await db.query(
      `DELETE FROM ${tableName(db, TrackedEvent)} WHERE project_id = $1 AND name = $2 AND NOT system`,
      [projectId, name],
    )) as [unknown, number];
    return count;
  }
}
