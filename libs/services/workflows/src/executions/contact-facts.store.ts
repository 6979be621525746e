import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WorkflowContactActivity, WorkflowSegmentMember } from './execution.entity.js';

/** One activity of a contact: a tracked event (`event`, its name) or an email engagement (`email`, its kind). */
export interface ActivityRow {
  projectId: string;
  contactId: string;
  source: 'event' | 'email';
  name: string;
  occurredAt: string | Date;
}

/** A contact in a segment. */
export interface MembershipKey {
  projectId: string;
  contactId: string;
  segmentId: string;
}

/** `(project, contact, segment)` columns, for unnest. */
const membershipColumns = (keys: MembershipKey[]): string[][] => [
  keys.map((k) => k.projectId),
  keys.map((k) => k.contactId),
  keys.map((k) => k.segmentId),
];

/**
 * What workflows know of a contact besides its record (CONDITION steps read it): its activity
 * (tracked events, email engagement) and its segment memberships, kept from contacts', sending's
 * and segments' events. Every method runs in the caller's transaction.
 */
@Injectable()
export class ContactFactsStore {
  /** Appends activity rows with one multi-row insert. */
  async recordActivity(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    if (rows.length === 0) return;
    await m.query(
      `INSERT INTO ${tableName(m, WorkflowContactActivity)} (project_id, contact_id, source, name, occurred_at)
       SELECT p, c, s, n, t FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS x(p, c, s, n, t)`,
      [
        rows.map((r) => r.projectId),
        rows.map((r) => r.contactId),
        rows.map((r) => r.source),
        rows.map((r) => r.name),
        rows.map((r) => r.occurredAt),
      ],
    );
  }

  /** The contact's latest activity (at most 5,000 rows), newest first. */
  activityOf(
    m: EntityManager,
    projectId: string,
    contactId: string,
  ): Promise<{ source: string; name: string; occurred_at: Date }[]> {
    return m.query(
      `SELECT source, name, occurred_at FROM ${tableName(m, WorkflowContactActivity)} WHERE project_id = $1 AND contact_id = $2 ORDER BY id DESC LIMIT 5000`,
      [projectId, contactId],
    );
  }

  /** Memberships entered (one already known is left as it is). */
  async enterSegments(m: EntityManager, keys: MembershipKey[]): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, WorkflowSegmentMember)} (project_id, contact_id, segment_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING`,
      membershipColumns(keys),
    );
  }

  /** Memberships exited. */
  async exitSegments(m: EntityManager, keys: MembershipKey[]): Promise<void> {
    await m.query(
      `DELETE FROM ${tableName(m, WorkflowSegmentMember)}
        WHERE (project_id, contact_id, segment_id) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))`,
      membershipColumns(keys),
    );
  }

  /** The ids of the segments the contact is in. */
  async segmentsOf(m: EntityManager, projectId: string, contactId: string): Promise<string[]> {
    const rows = await m.query<{ segment_id: string }[]>(
      `SELECT segment_id FROM ${tableName(m, WorkflowSegmentMember)} WHERE project_id = $1 AND contact_id = $2`,
      [projectId, contactId],
    );
    return rows.map((r) => r.segment_id);
  }

  /** A deleted contact: its activity and memberships go. */
  async forgetContact(m: EntityManager, projectId: string, contactId: string): Promise<void> {
    await m.query(`DELETE FROM ${tableName(m, WorkflowContactActivity)} WHERE project_id = $1 AND contact_id = $2`, [
      projectId,
      contactId,
    ]);
    await m.query(`DELETE FROM ${tableName(m, WorkflowSegmentMember)} WHERE project_id = $1 AND contact_id = $2`, [
      projectId,
      contactId,
    ]);
  }
}
