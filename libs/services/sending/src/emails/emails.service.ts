import { notFoundError } from '@herald/core';
import type { CursorPage } from '@herald/http';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import type { ListEmailsQueryDto } from './email.dto.js';
import { emailSummaryView, emailView, storedStatuses, type EmailSummaryView, type EmailView } from './email-view.js';
import { emailFromRow, type Email } from './email.entity.js';
import { EmailsStore } from './emails.store.js';

/** What became of a project's emails: one email with its history, or a filtered list, newest first. */
@Injectable()
export class EmailsService {
  constructor(
    @InjectDataSource(SENDING) private readonly db: DataSource,
    private readonly store: EmailsStore,
  ) {}

  async get(projectId: string, id: string): Promise<EmailView> {
    const row = await this.store.one(this.db.manager, projectId, id);
    if (!row) throw notFoundError('Email', id);
    const events = await this.store.history(this.db.manager, projectId, id);
    return emailView(toEmail(row), events);
  }

  async list(projectId: string, q: ListEmailsQueryDto): Promise<CursorPage<EmailSummaryView>> {
    const page = await this.store.page(this.db, projectId, q, {
      ...(q.contactId ? { contactId: q.contactId } : {}),
      ...(q.status ? { statuses: storedStatuses(q.status) } : {}),
    });
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
