import { flattenLeaves, inferFieldType, normaliseEmail } from '@herald/contact-data';
import { tableName } from '@herald/persistence';
import type { EntityManager } from 'typeorm';
import {
  SegmentContact,
  SegmentContactEmail,
  SegmentContactEvent,
  SegmentDeletedContact,
  SegmentFieldType,
} from './read-model.entities.js';

export interface ContactState {
  contactId: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
}

/**
 * The writes of the read model, each in the caller's transaction (the inbox's). Out of order
 * safety: a contact row keeps the `occurredAt` of the newest contact event applied as `updated_at`,
 * and an older event changes nothing; a deleted contact leaves a tombstone that later contact
 * events respect. Event and engagement rows are appended (the inbox applies each event once).
 */
export class ReadModelWriter {
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
    const t = tableName(m, SegmentContact);
    const rows: unknown[] = await m.query(
      `INSERT INTO ${t} AS t (project_id, contact_id, email, subscribed, data, created_at, updated_at)
       SELECT $1::varchar, $2::varchar, $3::varchar, $4::boolean, $5::jsonb, $6::timestamptz, $6::timestamptz
        WHERE NOT EXISTS (SELECT 1 FROM ${tableName(m, SegmentDeletedContact)} d WHERE d.project_id = $1::varchar AND d.contact_id = $2::varchar)
       ON CONFLICT (project_id, contact_id) DO UPDATE SET
         email = CASE WHEN t.updated_at <= EXCLUDED.updated_at THEN EXCLUDED.email ELSE t.email END,
         subscribed = CASE WHEN t.updated_at <= EXCLUDED.updated_at THEN EXCLUDED.subscribed ELSE t.subscribed END,
         data = CASE WHEN t.updated_at <= EXCLUDED.updated_at THEN EXCLUDED.data ELSE t.data END,
         created_at = CASE WHEN $7::boolean THEN LEAST(t.created_at, EXCLUDED.created_at) ELSE t.created_at END,
         updated_at = GREATEST(t.updated_at, EXCLUDED.updated_at)
       WHERE t.updated_at <= EXCLUDED.updated_at OR ($7::boolean AND EXCLUDED.created_at < t.created_at)
       RETURNING 1`,
      [
        projectId,
        c.contactId,
        normaliseEmail(c.email),
        c.subscribed,
        JSON.stringify(c.data),
        at.toISOString(),
        created,
      ],
    );
    await this.registerFieldTypes(m, projectId, c.data);
    return rows.length > 0;
  }

  /** `contact.subscribed` / `contact.unsubscribed`: only the subscription (the full state comes with contact.updated). */
  async setSubscribed(m: EntityManager, projectId: string, contactId: string, subscribed: boolean, at: Date) {
    const rows: unknown[] = await m.query(
      `WITH u AS (UPDATE ${tableName(m, SegmentContact)} SET subscribed = $3, updated_at = $4
        WHERE project_id = $1 AND contact_id = $2 AND updated_at <= $4 RETURNING 1) SELECT 1 FROM u`,
      [projectId, contactId, subscribed, at.toISOString()],
    );
    return rows.length > 0;
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
    await m.query(
      `INSERT INTO ${tableName(m, SegmentContactEvent)} (project_id, contact_id, name, occurred_at, event_record_id)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (project_id, event_record_id) WHERE event_record_id IS NOT NULL DO NOTHING`,
      [projectId, contactId, name, at.toISOString(), recordId ?? null],
    );
  }

  /** `email.<kind>`: one more engagement record. */
  async addEngagement(m: EntityManager, projectId: string, contactId: string, kind: string, at: Date): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, SegmentContactEmail)} (project_id, contact_id, kind, occurred_at) VALUES ($1, $2, $3, $4)`,
      [projectId, contactId, kind, at.toISOString()],
    );
  }

  /** The contact an email event concerns: its id when given, else the address's contact in the read model. */
  async contactIdFor(m: EntityManager, projectId: string, contactId: string | undefined, email: string) {
    if (contactId) return contactId;
    const rows: { contact_id: string }[] = await m.query(
      `SELECT contact_id FROM ${tableName(m, SegmentContact)} WHERE project_id = $1 AND email = $2 LIMIT 1`,
      [projectId, normaliseEmail(email)],
    );
    return rows[0]?.contact_id;
  }

  /** The first non-null value of a key fixes its type (the contacts rule); later values change nothing. */
  async registerFieldTypes(m: EntityManager, projectId: string, data: Record<string, unknown>): Promise<void> {
    const typed = new Map<string, string>();
    for (const [field, value] of flattenLeaves(data)) {
      const type = inferFieldType(value);
      if (type && field.length <= 300) typed.set(field, type);
    }
    if (typed.size === 0) return;
    const fields = [...typed.keys()].sort();
    await m.query(
      `INSERT INTO ${tableName(m, SegmentFieldType)} (project_id, field, type)
       SELECT $1::varchar, * FROM unnest($2::varchar[], $3::varchar[]) ON CONFLICT (project_id, field) DO NOTHING`,
      [projectId, fields, fields.map((f) => typed.get(f)!)],
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
}
