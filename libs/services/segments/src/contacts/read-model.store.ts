import { flattenLeaves, inferFieldType, normaliseEmail } from '@herald/contact-data';
import type { ExportedContact } from '@herald/internal-contracts';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  SegmentContact,
  SegmentContactEmail,
  SegmentContactEvent,
  SegmentDeletedContact,
  SegmentFieldType,
} from './read-model.entities.js';
import { rounds } from './rounds.js';

export interface ContactState {
  contactId: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
}

/** A contact of a project. */
export interface ContactKey {
  projectId: string;
  contactId: string;
}

/** One contact event's state, to apply (`created`: a `contact.created`, which may also fix the creation time). */
export interface ContactWrite {
  projectId: string;
  state: ContactState;
  at: Date;
  created: boolean;
}

/**
 * The SQL of the read model (segments' copy of contacts, docs/segments.md "Read model"): its writes,
 * each in the caller's transaction (the inbox's, or a backfill page's), and its lookups. Out of order
 * safety: a contact row keeps the `occurredAt` of the newest contact event applied as `updated_at`,
 * and an older event changes nothing; a deleted contact leaves a tombstone that later contact
 * events respect. Event and engagement rows are appended (the inbox applies each event once).
 */
@Injectable()
export class ReadModelStore {
  /**
   * `contact.created` / `contact.updated`: the contact's whole state after the change. Returns
   * whether it was applied (false: an older state than the stored one, or a deleted contact).
   */
  async upsertContact(
    m: EntityManager,
    projectId: string,
    c: ContactState,
    at: Date,
    created: boolean,
  ): Promise<boolean> {
    return (await this.upsertContacts(m, [{ projectId, state: c, at, created }])).length > 0;
  }

  /**
   * Many contact states, applied as if one after the other (see `rounds`): one statement per round
   * for the creations and one for the updates. Answers the contacts whose row changed.
   */
  async upsertContacts(m: EntityManager, writes: ContactWrite[]): Promise<ContactKey[]> {
    const t = tableName(m, SegmentContact);
    const applied: ContactKey[] = [];
    for (const round of rounds(
      writes,
      (w) => w.state.contactId,
      (w) => w.projectId,
    )) {
      for (const created of [true, false]) {
        const rows = round
          .filter((w) => w.created === created)
          .map((w) => ({
            project_id: w.projectId,
            contact_id: w.state.contactId,
            email: normaliseEmail(w.state.email),
            subscribed: w.state.subscribed,
            data: w.state.data,
            at: w.at.toISOString(),
          }));
        if (rows.length === 0) continue;
        // rows in key order, as every writer of these rows takes their locks
        const done: { project_id: string; contact_id: string }[] = await m.query(
          `INSERT INTO ${t} AS t (project_id, contact_id, email, subscribed, data, created_at, updated_at)
           SELECT r.project_id, r.contact_id, r.email, r.subscribed, r.data, r.at, r.at
             FROM jsonb_to_recordset($1::jsonb)
                  AS r(project_id varchar, contact_id varchar, email varchar, subscribed boolean, data jsonb, at timestamptz)
            WHERE NOT EXISTS (SELECT 1 FROM ${tableName(m, SegmentDeletedContact)} d
                               WHERE d.project_id = r.project_id AND d.contact_id = r.contact_id)
            ORDER BY r.project_id, r.contact_id
           ON CONFLICT (project_id, contact_id) DO UPDATE SET
             email = CASE WHEN t.updated_at <= EXCLUDED.updated_at THEN EXCLUDED.email ELSE t.email END,
             subscribed = CASE WHEN t.updated_at <= EXCLUDED.updated_at THEN EXCLUDED.subscribed ELSE t.subscribed END,
             data = CASE WHEN t.updated_at <= EXCLUDED.updated_at THEN EXCLUDED.data ELSE t.data END,
             created_at = CASE WHEN $2::boolean THEN LEAST(t.created_at, EXCLUDED.created_at) ELSE t.created_at END,
             updated_at = GREATEST(t.updated_at, EXCLUDED.updated_at)
           WHERE t.updated_at <= EXCLUDED.updated_at OR ($2::boolean AND EXCLUDED.created_at < t.created_at)
           RETURNING t.project_id, t.contact_id`,
          [JSON.stringify(rows), created],
        );
        for (const r of done) applied.push({ projectId: r.project_id, contactId: r.contact_id });
      }
    }
    await this.registerFieldTypesOf(
      m,
      writes.map((w) => ({ projectId: w.projectId, data: w.state.data })),
    );
    return applied;
  }

  /** `contact.subscribed` / `contact.unsubscribed`: only the subscription (the full state comes with contact.updated). */
  async setSubscribed(m: EntityManager, projectId: string, contactId: string, subscribed: boolean, at: Date) {
    return (await this.setSubscribedMany(m, [{ projectId, contactId, subscribed, at }])).length > 0;
  }

  /** Many subscription changes, applied as if one after the other; answers the contacts whose row changed. */
  async setSubscribedMany(
    m: EntityManager,
    changes: (ContactKey & { subscribed: boolean; at: Date })[],
  ): Promise<ContactKey[]> {
    const applied: ContactKey[] = [];
    for (const round of rounds(
      changes,
      (c) => c.contactId,
      (c) => c.projectId,
    )) {
      const done: { project_id: string; contact_id: string }[] = await m.query(
        `WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb)
                      AS r(project_id varchar, contact_id varchar, subscribed boolean, at timestamptz)),
              u AS (UPDATE ${tableName(m, SegmentContact)} t SET subscribed = r.subscribed, updated_at = r.at
                      FROM r WHERE t.project_id = r.project_id AND t.contact_id = r.contact_id AND t.updated_at <= r.at
                    RETURNING t.project_id, t.contact_id)
         SELECT project_id, contact_id FROM u`,
        [
          JSON.stringify(
            round.map((c) => ({
              project_id: c.projectId,
              contact_id: c.contactId,
              subscribed: c.subscribed,
              at: c.at.toISOString(),
            })),
          ),
        ],
      );
      for (const r of done) applied.push({ projectId: r.project_id, contactId: r.contact_id });
    }
    return applied;
  }

  /** `contact.deleted`: the row, its events and engagement go; a tombstone stays. */
  async deleteContact(m: EntityManager, projectId: string, contactId: string, at: Date): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, SegmentDeletedContact)} (project_id, contact_id, deleted_at) VALUES ($1, $2, $3)
       ON CONFLICT (project_id, contact_id) DO NOTHING`,
      [projectId, contactId, at.toISOString()],
    );
    for (const entity of [SegmentContact, SegmentContactEvent, SegmentContactEmail])
      await m.query(`DELETE FROM ${tableName(m, entity)} WHERE project_id = $1 AND contact_id = $2`, [
        projectId,
        contactId,
      ]);
  }

  /** `event.tracked`: one more event of that name (once per contacts record id, when given). */
  async addEvent(
    m: EntityManager,
    projectId: string,
    contactId: string,
    name: string,
    at: Date,
    recordId?: string,
  ): Promise<void> {
    await this.addEvents(m, [{ projectId, contactId, name, at, ...(recordId ? { recordId } : {}) }]);
  }

  /** Many tracked events in one statement (each once per contacts record id, when given). */
  async addEvents(
    m: EntityManager,
    events: (ContactKey & { name: string; at: Date; recordId?: string })[],
  ): Promise<void> {
    if (events.length === 0) return;
    await m.query(
      `INSERT INTO ${tableName(m, SegmentContactEvent)} (project_id, contact_id, name, occurred_at, event_record_id)
       SELECT project_id, contact_id, name, at, record_id FROM jsonb_to_recordset($1::jsonb)
           AS r(project_id varchar, contact_id varchar, name varchar, at timestamptz, record_id varchar)
       ON CONFLICT (project_id, event_record_id) WHERE event_record_id IS NOT NULL DO NOTHING`,
      [
        JSON.stringify(
          events.map((e) => ({
            project_id: e.projectId,
            contact_id: e.contactId,
            name: e.name,
            at: e.at.toISOString(),
            record_id: e.recordId ?? null,
          })),
        ),
      ],
    );
  }

  /** `email.<kind>`: engagement records, one statement. */
  async addEngagements(m: EntityManager, records: (ContactKey & { kind: string; at: Date })[]): Promise<void> {
    if (records.length === 0) return;
    await m.query(
      `INSERT INTO ${tableName(m, SegmentContactEmail)} (project_id, contact_id, kind, occurred_at)
       SELECT project_id, contact_id, kind, at FROM jsonb_to_recordset($1::jsonb)
           AS r(project_id varchar, contact_id varchar, kind varchar, at timestamptz)`,
      [
        JSON.stringify(
          records.map((r) => ({
            project_id: r.projectId,
            contact_id: r.contactId,
            kind: r.kind,
            at: r.at.toISOString(),
          })),
        ),
      ],
    );
  }

  /**
   * The contacts email events concern, in their order: the contact id when the event gives it, else
   * the address's contact in the read model (undefined when there is none), looked up in one statement.
   */
  async contactIdsFor(
    m: EntityManager,
    refs: { projectId: string; contactId?: string | undefined; email: string }[],
  ): Promise<(string | undefined)[]> {
    const ids: (string | undefined)[] = refs.map((r) => r.contactId || undefined);
    const missing = refs.flatMap((r, i) =>
      ids[i] ? [] : [{ i, project_id: r.projectId, email: normaliseEmail(r.email) }],
    );
    if (missing.length === 0) return ids;
    const rows: { i: number; contact_id: string }[] = await m.query(
      `SELECT r.i, (SELECT c.contact_id FROM ${tableName(m, SegmentContact)} c
                     WHERE c.project_id = r.project_id AND c.email = r.email LIMIT 1) AS contact_id
         FROM jsonb_to_recordset($1::jsonb) AS r(i int, project_id varchar, email varchar)`,
      [JSON.stringify(missing)],
    );
    for (const r of rows) if (r.contact_id) ids[r.i] = r.contact_id;
    return ids;
  }

  /** The first non-null value of a key fixes its type (the contacts rule); later values change nothing. */
  async registerFieldTypes(m: EntityManager, projectId: string, data: Record<string, unknown>): Promise<void> {
    await this.registerFieldTypesOf(m, [{ projectId, data }]);
  }

  /** `registerFieldTypes` for many contacts' data in one statement (within it, the first value seen of a key). */
  async registerFieldTypesOf(m: EntityManager, items: { projectId: string; data: Record<string, unknown> }[]) {
    const typed = new Map<string, { project_id: string; field: string; type: string }>();
    for (const { projectId, data } of items)
      for (const [field, value] of flattenLeaves(data)) {
        const type = inferFieldType(value);
        const key = `${projectId}\u0000${field}`;
        if (type && field.length <= 300 && !typed.has(key)) typed.set(key, { project_id: projectId, field, type });
      }
    if (typed.size === 0) return;
    // in key order, as concurrent writers lock the rows
    const rows = [...typed.values()].sort((a, b) =>
      a.project_id === b.project_id ? (a.field < b.field ? -1 : 1) : a.project_id < b.project_id ? -1 : 1,
    );
    await m.query(
      `INSERT INTO ${tableName(m, SegmentFieldType)} (project_id, field, type)
       SELECT project_id, field, type FROM jsonb_to_recordset($1::jsonb) AS r(project_id varchar, field varchar, type varchar)
       ON CONFLICT (project_id, field) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  }

  /** The project's field types, keyed `data.<path>`. */
  async fieldTypes(
    m: EntityManager,
    projectId: string,
  ): Promise<Map<string, 'string' | 'number' | 'boolean' | 'date'>> {
    const rows: { field: string; type: 'string' | 'number' | 'boolean' | 'date' }[] = await m.query(
      `SELECT field, type FROM ${tableName(m, SegmentFieldType)} WHERE project_id = $1`,
      [projectId],
    );
    return new Map(rows.map((r) => [r.field, r.type]));
  }

  /**
   * One page of contacts' export, rebuilt (the backfill, docs/segments.md "Backfill"): each contact
   * upserted with its own times, the newest state winning and a tombstone respected; its events
   * replace those without a contacts record id and are added once per record id; field types
   * registered as the live path does.
   */
  async backfillPage(m: EntityManager, projectId: string, page: ExportedContact[]): Promise<void> {
    const contacts = tableName(m, SegmentContact);
    const eventsTable = tableName(m, SegmentContactEvent);
    await m.query(
      `INSERT INTO ${contacts} AS t (project_id, contact_id, email, subscribed, data, created_at, updated_at)
       SELECT $1::varchar, x.id, x.email, x.subscribed, x.data, x."createdAt", x."updatedAt"
         FROM jsonb_to_recordset($2::jsonb) AS x(id varchar, email varchar, subscribed boolean, data jsonb,
                                                  "createdAt" timestamptz, "updatedAt" timestamptz)
        WHERE NOT EXISTS (SELECT 1 FROM ${tableName(m, SegmentDeletedContact)} d WHERE d.project_id = $1::varchar AND d.contact_id = x.id)
       ON CONFLICT (project_id, contact_id) DO UPDATE SET
         email = EXCLUDED.email, subscribed = EXCLUDED.subscribed, data = EXCLUDED.data,
         created_at = LEAST(t.created_at, EXCLUDED.created_at), updated_at = EXCLUDED.updated_at
       WHERE t.updated_at < EXCLUDED.updated_at`,
      [projectId, JSON.stringify(page.map(({ events: _events, ...c }) => c))],
    );
    const ids = page.map((c) => c.id);
    await m.query(
      `DELETE FROM ${eventsTable} WHERE project_id = $1 AND contact_id = ANY($2::varchar[]) AND event_record_id IS NULL`,
      [projectId, ids],
    );
    const rows = page.flatMap((c) => c.events.map((e) => ({ contactId: c.id, id: e.id, name: e.name, at: e.at })));
    if (rows.length > 0)
      await m.query(
        `INSERT INTO ${eventsTable} (project_id, contact_id, name, occurred_at, event_record_id)
         SELECT $1::varchar, x."contactId", x.name, x.at, x.id
           FROM jsonb_to_recordset($2::jsonb) AS x("contactId" varchar, id varchar, name varchar, at timestamptz)
          WHERE EXISTS (SELECT 1 FROM ${contacts} c WHERE c.project_id = $1::varchar AND c.contact_id = x."contactId")
         ON CONFLICT (project_id, event_record_id) WHERE event_record_id IS NOT NULL DO NOTHING`,
        [projectId, JSON.stringify(rows)],
      );
    for (const c of page) await this.registerFieldTypes(m, projectId, c.data);
  }

  /**
   * What each of these contacts holds, in the vocabulary of the filters' keys (`readKeysOf`): the
   * top-level keys of its custom fields (`data.<key>`), the names of its tracked events
   * (`event.<name>`) and the kinds of its engagement (`email.<kind>`); one statement for all of them.
   */
  async heldKeys(m: EntityManager, projectId: string, contactIds: string[]): Promise<Map<string, string[]>> {
    const rows = await m.query<{ contact_id: string; key: string }[]>(
      `SELECT c.contact_id, 'data.' || k.key AS key
         FROM ${tableName(m, SegmentContact)} c,
              jsonb_object_keys(CASE WHEN jsonb_typeof(c.data) = 'object' THEN c.data ELSE '{}' END) AS k(key)
        WHERE c.project_id = $1 AND c.contact_id = ANY($2::varchar[])
       UNION
       SELECT contact_id, 'event.' || name FROM ${tableName(m, SegmentContactEvent)}
        WHERE project_id = $1 AND contact_id = ANY($2::varchar[])
       UNION
       SELECT contact_id, 'email.' || kind FROM ${tableName(m, SegmentContactEmail)}
        WHERE project_id = $1 AND contact_id = ANY($2::varchar[])`,
      [projectId, contactIds],
    );
    const held = new Map<string, string[]>();
    for (const r of rows) {
      const keys = held.get(r.contact_id);
      if (keys) keys.push(r.key);
      else held.set(r.contact_id, [r.key]);
    }
    return held;
  }

  /** The contacts of these (normalised) addresses: address → contact id; an address without one is left out. */
  async idsByEmail(m: EntityManager, projectId: string, emails: string[]): Promise<Map<string, string>> {
    const rows = await m.query<{ email: string; contact_id: string }[]>(
      `SELECT email, contact_id FROM ${tableName(m, SegmentContact)} WHERE project_id = $1 AND email = ANY($2::varchar[])`,
      [projectId, emails],
    );
    return new Map(rows.map((r) => [r.email, r.contact_id]));
  }
}
