import { keysetPage, type CursorPage, type CursorQueryDto } from '@herald/http';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { Email } from '../emails/email.entity.js';
import { SenderDomain } from '../senders/sender-domain.entity.js';
import { InboundMessage } from './inbound-message.entity.js';

/** The columns of a list item (never the content, headers or attachments' content). */
const SUMMARY_COLUMNS = `id, project_id, contact_id, from_email, from_name, envelope_from, recipients, subject, message_id,
  in_reply_to_email_id, campaign_id, workflow_id, size, created_at,
  (SELECT count(*)::int FROM jsonb_array_elements(attachments)) AS attachment_count`;

/** A row as `RETURNING *` / `SELECT *` gives it. */
export type InboundRow = Record<string, unknown>;

/** An email of the project a reply may answer. */
export interface RepliedEmail {
  id: string;
  messageId: string;
  campaignId: string | null;
  workflowId: string | null;
}

/**
 * Received messages (`inbound_messages`), and what receiving reads of the service's other tables:
 * the projects a recipient's domain is verified in (`sender_domains`, the copy of the domains
 * service's) and the emails a reply names (`emails` by Message-ID).
 */
@Injectable()
export class InboundStore {
  /** The projects in which `domain` (lower case) is a verified sender domain. */
  async projectsOfDomain(m: EntityManager, domain: string): Promise<string[]> {
    const rows: { project_id: string }[] = await m.query(
      `SELECT DISTINCT project_id FROM ${tableName(m, SenderDomain)} WHERE domain = $1 AND verified ORDER BY project_id`,
      [domain],
    );
    return rows.map((r) => r.project_id);
  }

  /** The project's emails whose Message-ID is one of `messageIds`. */
  async emailsByMessageId(m: EntityManager, projectId: string, messageIds: string[]): Promise<RepliedEmail[]> {
    if (messageIds.length === 0) return [];
    const rows: { id: string; message_id: string; campaign_id: string | null; workflow_id: string | null }[] =
      await m.query(
        `SELECT id, message_id, campaign_id, workflow_id FROM ${tableName(m, Email)}
          WHERE message_id = ANY($1::varchar[]) AND project_id = $2`,
        [messageIds, projectId],
      );
    return rows.map((r) => ({
      id: r.id,
      messageId: r.message_id,
      campaignId: r.campaign_id,
      workflowId: r.workflow_id,
    }));
  }

  /**
   * Stores a received message; false when the project already has a message of the same Message-ID
   * (the same message delivered again), which is left as it was.
   */
  async insert(m: EntityManager, msg: Omit<InboundMessage, 'createdAt'>): Promise<boolean> {
    const inserted = (await m.query(
      `INSERT INTO ${tableName(m, InboundMessage)} (id, project_id, contact_id, from_email, from_name, envelope_from,
         recipients, subject, message_id, text, html, headers, attachments, in_reply_to_email_id, campaign_id, workflow_id, size)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       ON CONFLICT (project_id, message_id) DO NOTHING RETURNING id`,
      [
        msg.id,
        msg.projectId,
        msg.contactId,
        msg.fromEmail,
        msg.fromName,
        msg.envelopeFrom,
        JSON.stringify(msg.recipients),
        msg.subject,
        msg.messageId,
        msg.text,
        msg.html,
        JSON.stringify(msg.headers),
        JSON.stringify(msg.attachments),
        msg.inReplyToEmailId,
        msg.campaignId,
        msg.workflowId,
        msg.size,
      ],
    )) as { id: string }[];
    return inserted.length === 1;
  }

  /** The whole message (`GET /inbound/:id`); undefined when it is not the project's. */
  async one(m: EntityManager, projectId: string, id: string): Promise<InboundRow | undefined> {
    const [row] = (await m.query(`SELECT * FROM ${tableName(m, InboundMessage)} WHERE project_id = $1 AND id = $2`, [
      projectId,
      id,
    ])) as InboundRow[];
    return row;
  }

  /** A page of the project's messages, newest first (keyset-paginated; the total on the first page only), of one contact when given. */
  page(
    db: DataSource,
    projectId: string,
    q: CursorQueryDto,
    f: { contactId?: string },
  ): Promise<CursorPage<InboundRow>> {
    const filters = ['project_id = $1'];
    const params: unknown[] = [projectId];
    if (f.contactId) {
      params.push(f.contactId);
      filters.push(`contact_id = $${params.length}`);
    }
    return keysetPage(db, q, { table: tableName(db, InboundMessage), columns: SUMMARY_COLUMNS, filters, params });
  }
}
