import { invalidInput } from '@herald/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { RecipientStatus, SkipReason } from '../campaigns/campaign.entity.js';
import { CampaignsService } from '../campaigns/campaigns.service.js';
import { CAMPAIGNS } from '../consumer.js';
import { statsOf, type CampaignStats } from '../ledger/ledger-rules.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';

/** One ledger row as the API shows it. */
export interface RecipientView {
  contactId: string;
  email: string;
  status: RecipientStatus;
  reason: SkipReason | null;
  error: string | null;
  emailId: string | null;
  sentAt: string | null;
  deliveredAt: string | null;
  openedAt: string | null;
  clickedAt: string | null;
  bouncedAt: string | null;
  complainedAt: string | null;
  /** When the recipient unsubscribed through this campaign's link. */
  unsubscribedAt: string | null;
}

export interface RecipientsPage {
  data: RecipientView[];
  cursor: string | null;
  hasMore: boolean;
  total: number;
}

export interface RecipientsQuery {
  status?: RecipientStatus;
  reason?: SkipReason;
  limit: number;
  cursor?: string;
}

const iso = (v: unknown): string | null => (v ? new Date(v as string).toISOString() : null);
const view = (r: Record<string, unknown>): RecipientView => ({
  contactId: r.contact_id as string,
  email: r.email as string,
  status: r.status as RecipientStatus,
  reason: (r.reason as SkipReason | null) ?? null,
  error: (r.error as string | null) ?? null,
  emailId: (r.email_id as string | null) ?? null,
  sentAt: iso(r.sent_at),
  deliveredAt: iso(r.delivered_at),
  openedAt: iso(r.opened_at),
  clickedAt: iso(r.clicked_at),
  bouncedAt: iso(r.bounced_at),
  complainedAt: iso(r.complained_at),
  unsubscribedAt: iso(r.unsubscribed_at),
});

const CSV_COLUMNS = [
  'contactId',
  'email',
  'status',
  'reason',
  'error',
  'emailId',
  'sentAt',
  'deliveredAt',
  'openedAt',
  'clickedAt',
  'bouncedAt',
  'complainedAt',
  'unsubscribedAt',
] as const;

/** A CSV field: quoted when needed; a leading `=`, `+`, `-` or `@` is defused (spreadsheet formulas). */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The ledger read: stats, the cursor-paginated recipients list, and the CSV export (keyset batches). */
@Injectable()
export class RecipientsService {
  constructor(
    @InjectDataSource(CAMPAIGNS) private readonly db: DataSource,
    private readonly campaigns: CampaignsService,
  ) {}

  async stats(projectId: string, id: string): Promise<CampaignStats & { campaignId: string; status: string }> {
    const c = await this.campaigns.find(this.db.manager, projectId, id);
    return { campaignId: c.id, status: c.status, ...statsOf(await LedgerRepository.counts(this.db.manager, c.id)) };
  }

  async page(projectId: string, id: string, q: RecipientsQuery): Promise<RecipientsPage> {
    const c = await this.campaigns.find(this.db.manager, projectId, id);
    const after = q.cursor === undefined ? 0 : Number(q.cursor);
    if (!Number.isSafeInteger(after) || after < 0)
      throw invalidInput([
        { field: 'cursor', code: 'invalid_string', message: 'cursor must be a value returned by a previous page' },
      ]);
    const rows = await LedgerRepository.rowsAfter(this.db.manager, c.id, q, after, q.limit + 1);
    const hasMore = rows.length > q.limit;
    const data = rows.slice(0, q.limit);
    const total = q.cursor === undefined ? await LedgerRepository.countOf(this.db.manager, c.id, q) : 0;
    return {
      data: data.map(view),
      cursor: hasMore ? String(data[data.length - 1]!.seq) : null,
      hasMore,
      total,
    };
  }

  /** The whole ledger as CSV lines (header first), read 1,000 rows at a time. */
  async *csv(projectId: string, id: string, q: Omit<RecipientsQuery, 'limit' | 'cursor'>): AsyncGenerator<string> {
    const c = await this.campaigns.find(this.db.manager, projectId, id);
    yield `${CSV_COLUMNS.join(',')}\r\n`;
    let after = '0';
    for (;;) {
      const rows = await LedgerRepository.rowsAfter(this.db.manager, c.id, q, after, 1000);
      if (rows.length === 0) return;
      yield rows
        .map(view)
        .map((r) => `${CSV_COLUMNS.map((k) => csvField(r[k])).join(',')}\r\n`)
        .join('');
      after = String(rows[rows.length - 1]!.seq);
    }
  }
}
