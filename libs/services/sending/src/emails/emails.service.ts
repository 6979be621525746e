import { notFoundError } from '@herald/core';
import { keysetPage, type CursorPage } from '@herald/http';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import type { ListEmailsQueryDto } from './email.dto.js';
import { EmailEvent } from './email-event.entity.js';
import { emailSummaryView, emailView, storedStatuses, type EmailSummaryView, type EmailView } from './email-view.js';
import { Email, emailFromRow } from './email.entity.js';

/** The columns a view needs (never the rendered content or attachments). */
const COLUMNS = `id, project_id, contact_id, to_email, to_name, from_email, from_name, reply_to, subject, template_id, type,
  origin, test, priority, status, attempts, message_id, error, sent_at, opened_at, clicked_at, bounced_at, complained_at, created_at`;

/** What became of a project's emails: one email with its history, or a filtered list, newest first. */
@Injectable()
export class EmailsService {
  constructor(@InjectDataSource(SENDING) private readonly db: DataSource) {}

  async get(projectId: string, id: string): Promise<EmailView> {
    const [row] = (await this.db.query(
      `SELECT ${COLUMNS} FROM ${tableName(this.db, Email)} WHERE project_id = $1 AND id = $2`,
      [projectId, id],
    )) as Record<string, unknown>[];
    if (!row) throw notFoundError('Email', id);
    const events = await this.db
      .getRepository(EmailEvent)
      .find({ where: { projectId, emailId: id }, order: { occurredAt: 'ASC', eventId: 'ASC' } });
    return emailView(toEmail(row), events);
  }

  async list(projectId: string, q: ListEmailsQueryDto): Promise<CursorPage<EmailSummaryView>> {
    const filters = ['project_id = $1'];
    const params: unknown[] = [projectId];
    if (q.contactId) {
      params.push(q.contactId);
      filters.push(`contact_id = $${params.length}`);
    }
    if (q.status) {
      params.push(storedStatuses(q.status));
      filters.push(`status = ANY($${params.length}::varchar[])`);
    }
    const page = await keysetPage(this.db, q, { table: tableName(this.db, Email), columns: COLUMNS, filters, params });
    return { ...page, data: page.data.map((r) => emailSummaryView(toEmail(r))) };
  }
}

const toEmail = (r: Record<string, unknown>): Email =>
  ({
    ...emailFromRow(r),
    error: r.error as string | null,
    sentAt: r.sent_at as Date | null,
    openedAt: r.opened_at as Date | null,
    clickedAt: r.clicked_at as Date | null,
    bouncedAt: r.bounced_at as Date | null,
    complainedAt: r.complained_at as Date | null,
    createdAt: r.created_at as Date,
  }) as Email;
