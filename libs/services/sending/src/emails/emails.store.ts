import { keysetPage, type CursorPage, type CursorQueryDto } from '@herald/http';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { EmailEvent } from './email-event.entity.js';
import { Email, emailFromRow, type EmailStatus } from './email.entity.js';

/** The columns a view needs (never the rendered content or attachments). */
const COLUMNS = `id, project_id, contact_id, to_email, to_name, from_email, from_name, reply_to, subject, template_id, type,
  origin, test, test_mode, priority, status, attempts, message_id, error, sent_at, opened_at, clicked_at, bounced_at, complained_at, created_at`;

/** One `email.*` event as the email's history records it (`email_events`). */
export interface EmailEventRow {
  eventId: string;
  projectId: string;
  emailId: string;
  /** The topic's name without `email.`. */
  type: string;
  occurredAt: string;
  /** What the event adds (bounceType, reason, url, messageId). */
  data: Record<string, string>;
}

/**
 * The emails of a project as their views and links read them (`emails`, never the rendered content
 * for a view), and each email's history (`email_events`). The delivery queue's statements are
 * DeliveryStore's.
 */
@Injectable()
export class EmailsStore {
  /** The email's view columns (`GET /emails/:id`); undefined when it is not the project's. */
  async one(m: EntityManager, projectId: string, id: string): Promise<Record<string, unknown> | undefined> {
    const [row] = (await m.query(`SELECT ${COLUMNS} FROM ${tableName(m, Email)} WHERE project_id = $1 AND id = $2`, [
      projectId,
      id,
    ])) as Record<string, unknown>[];
    return row;
  }

  /** The email's history, oldest first (ties by event id). */
  history(m: EntityManager, projectId: string, emailId: string): Promise<EmailEvent[]> {
    return m
      .getRepository(EmailEvent)
      .find({ where: { projectId, emailId }, order: { occurredAt: 'ASC', eventId: 'ASC' } });
  }

  /**
   * A page of the project's emails newest first (`GET /emails`, keyset-paginated; the total on the
   * first page only), of one contact and of some statuses when given.
   */
  page(
    db: DataSource,
    projectId: string,
    q: CursorQueryDto,
    f: { contactId?: string; statuses?: EmailStatus[] },
  ): Promise<CursorPage<Record<string, unknown>>> {
    const filters = ['project_id = $1'];
    const params: unknown[] = [projectId];
    if (f.contactId) {
      params.push(f.contactId);
      filters.push(`contact_id = $${params.length}`);
    }
    if (f.statuses) {
      params.push(f.statuses);
      filters.push(`status = ANY($${params.length}::varchar[])`);
    }
    return keysetPage(db, q, { table: tableName(db, Email), columns: COLUMNS, filters, params });
  }

  /** Records events in their emails' histories; an event recorded before stays as it was. */
  async recordEvents(m: EntityManager, rows: EmailEventRow[]): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, EmailEvent)} (event_id, project_id, email_id, type, occurred_at, data)
         SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[], $6::jsonb[])
         ON CONFLICT DO NOTHING`,
      [
        rows.map((r) => r.eventId),
        rows.map((r) => r.projectId),
        rows.map((r) => r.emailId),
        rows.map((r) => r.type),
        rows.map((r) => r.occurredAt),
        rows.map((r) => JSON.stringify(r.data)),
      ],
    );
  }

  /** The address the project's email went to; null when there is no such email. */
  async recipient(m: EntityManager, projectId: string, emailId: string): Promise<string | null> {
    const rows: { to_email: string }[] = await m.query(
      `SELECT to_email FROM ${tableName(m, Email)} WHERE project_id = $1 AND id = $2`,
      [projectId, emailId],
    );
    return rows[0]?.to_email ?? null;
  }

  /** The campaign the project's email was sent for; null or undefined when none (or no such email). */
  async campaignOf(m: EntityManager, projectId: string, emailId: string): Promise<string | null | undefined> {
    const rows: { campaign_id: string | null }[] = await m.query(
      `SELECT campaign_id FROM ${tableName(m, Email)} WHERE project_id = $1 AND id = $2`,
      [projectId, emailId],
    );
    return rows[0]?.campaign_id;
  }

  /**
   * Stamps the email's first open or click now; answers the email when this was the first (undefined
   * when it was stamped before, or there is no such email).
   */
  async stampFirst(
    m: EntityManager,
    emailId: string,
    column: 'opened_at' | 'clicked_at',
  ): Promise<Partial<Email> | undefined> {
    const [rows] = (await m.query(
      `UPDATE ${tableName(m, Email)} SET ${column} = now() WHERE id = $1 AND ${column} IS NULL RETURNING *`,
      [emailId],
    )) as [Record<string, unknown>[], number];
    return rows[0] ? emailFromRow(rows[0]) : undefined;
  }
}
