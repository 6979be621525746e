import { tableName } from '@herald/persistence';
import type { EntityManager } from 'typeorm';
import { CampaignRecipient, type SkipReason } from '../campaigns/campaign.entity.js';
import type { AudienceContact } from '../clients/segments-client.js';
import { planRows, type LedgerCounts, type StopReason } from './ledger-rules.js';

/** A pending row ready to hand over, with the contact it renders with. */
export interface PendingRow {
  contactId: string;
  email: string;
  contact: AudienceContact;
}

/** Which of a campaign's rows a read of the ledger wants: a status, a skip reason, or all. */
export interface LedgerFilter {
  status?: string;
  reason?: string;
}

/** The WHERE of a filtered read of the campaign's rows, with its parameters (the campaign's id first). */
function whereOf(campaignId: string, q: LedgerFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [campaignId];
  const parts = ['campaign_id = $1'];
  if (q.status) parts.push(`status = $${params.push(q.status)}`);
  if (q.reason) parts.push(`reason = $${params.push(q.reason)}`);
  return { where: parts.join(' AND '), params };
}

/** Rows that can still become sent/failed: pending, queued, and a cancelled skip (its email may be out already). */
const OPEN = `(status IN ('pending', 'queued') OR (status = 'skipped' AND reason = 'cancelled'))`;

/**
 * The ledger's SQL: multi-row writes for the audience pages and the hand-off, forward-only state
 * changes (a row never leaves a final state, except a `skipped: cancelled` whose email proves it went
 * out), and the counts. Every method runs in the caller's transaction.
 */
export class LedgerRepository {
  static table = (m: EntityManager): string => tableName(m, CampaignRecipient);

  /**
   * Adds one audience page: one row per contact (a contact already in the ledger, from a page read
   * again after a crash, is left alone), a second contact with an address already present is
   * `skipped: duplicate`.
   */
  static async addPage(m: EntityManager, projectId: string, campaignId: string, contacts: AudienceContact[]) {
    if (contacts.length === 0) return 0;
    const t = this.table(m);
    const addresses = [...new Set(contacts.map((c) => c.email.trim().toLowerCase()))];
    const taken: { email: string; contact_id: string }[] = await m.query(
      `SELECT email, contact_id FROM ${t}
        WHERE campaign_id = $1 AND email = ANY($2::varchar[]) AND reason IS DISTINCT FROM 'duplicate'`,
      [campaignId, addresses],
    );
    const rows = planRows(contacts, new Map(taken.map((r) => [r.email, r.contact_id])));
    const byId = new Map(contacts.map((c) => [c.id, c]));
    const inserted: unknown[] = await m.query(
      `INSERT INTO ${t} (campaign_id, project_id, contact_id, seq, email, status, reason, contact)
       SELECT $1::varchar, $2::varchar, r.contact_id,
              (SELECT COALESCE(max(seq), 0) FROM ${t} WHERE campaign_id = $1::varchar) + r.n,
              r.email, r.status, r.reason, r.contact
         FROM unnest($3::varchar[], $4::varchar[], $5::varchar[], $6::varchar[], $7::jsonb[])
              WITH ORDINALITY AS r(contact_id, email, status, reason, contact, n)
       ON CONFLICT (campaign_id, contact_id) DO NOTHING RETURNING 1`,
      [
        campaignId,
        projectId,
        rows.map((r) => r.contactId),
        rows.map((r) => r.email),
        rows.map((r) => r.status),
        rows.map((r) => r.reason),
        rows.map((r) => (r.status === 'pending' ? JSON.stringify(byId.get(r.contactId)) : null)),
      ],
    );
    return inserted.length;
  }

  /**
   * Samples the ledger's statistics again (ANALYZE, a bounded sample): a resolved audience wrote its
   * rows in one burst, and plans made on statistics from before it treat a campaign of 100,000 rows
   * as a hundred (autovacuum's analyze comes minutes later, or never for a short campaign).
   */
  static async refreshStatistics(m: EntityManager): Promise<void> {
    await m.query(`ANALYZE ${this.table(m)}`);
  }

  /** The next pending rows in ledger order. */
  static async pending(m: EntityManager, campaignId: string, limit: number): Promise<PendingRow[]> {
    const rows: { contact_id: string; email: string; contact: AudienceContact }[] = await m.query(
      `SELECT contact_id, email, contact FROM ${this.table(m)} WHERE campaign_id = $1 AND status = 'pending'
        ORDER BY seq LIMIT $2`,
      [campaignId, limit],
    );
    return rows.map((r) => ({ contactId: r.contact_id, email: r.email, contact: r.contact }));
  }

  /**
   * Up to `limit` of the campaign's rows the filter wants after position `after` (a row's `seq`), in
   * ledger order, as their columns: a page of recipients, a batch of the CSV export.
   */
  static async rowsAfter(
    m: EntityManager,
    campaignId: string,
    filter: LedgerFilter,
    after: number | string,
    limit: number,
  ): Promise<Record<string, unknown>[]> {
    const { where, params } = whereOf(campaignId, filter);
    return m.query<Record<string, unknown>[]>(
      `SELECT * FROM ${this.table(m)} WHERE ${where} AND seq > $${params.length + 1} ORDER BY seq LIMIT ${limit}`,
      [...params, after],
    );
  }

  /** How many of the campaign's rows the filter wants. */
  static async countOf(m: EntityManager, campaignId: string, filter: LedgerFilter): Promise<number> {
    const { where, params } = whereOf(campaignId, filter);
    const [{ n }] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${this.table(m)} WHERE ${where}`,
      params,
    );
    return n;
  }

  /** Rows handed over and not final yet: what is in flight at sending. */
  static async inFlight(m: EntityManager, campaignId: string): Promise<number> {
    const [{ n }] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${this.table(m)} WHERE campaign_id = $1 AND status = 'queued'`,
      [campaignId],
    );
    return n;
  }

  /** Whether any row is not final (pending or queued). */
  static async open(m: EntityManager, campaignId: string): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `SELECT 1 FROM ${this.table(m)} WHERE campaign_id = $1 AND status IN ('pending', 'queued') LIMIT 1`,
      [campaignId],
    );
    return rows.length > 0;
  }

  /**
   * Applies the intake's answers: queued (with the email id) or skipped (with the reason). Only a
   * row still pending, or skipped by a cancel that raced the hand-off, moves: an email event may
   * already have made it final.
   */
  static async applyOutcomes(
    m: EntityManager,
    campaignId: string,
    outcomes: { contactId: string; status: 'queued' | 'skipped'; reason: SkipReason | null; emailId: string | null }[],
  ): Promise<void> {
    if (outcomes.length === 0) return;
    await m.query(
      `UPDATE ${this.table(m)} l SET status = o.status, reason = o.reason, email_id = o.email_id, contact = NULL,
              updated_at = now()
         FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[]) AS o(contact_id, status, reason, email_id)
        WHERE l.campaign_id = $1 AND l.contact_id = ANY($2::varchar[]) AND l.contact_id = o.contact_id
          AND (l.status = 'pending' OR (l.status = 'skipped' AND l.reason = 'cancelled'))`,
      [
        campaignId,
        outcomes.map((o) => o.contactId),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.reason),
        outcomes.map((o) => o.emailId),
      ],
    );
  }

  /** A cancel: every pending row ends `skipped: cancelled`. */
  static async cancelPending(m: EntityManager, campaignId: string): Promise<void> {
    await this.skipPending(m, campaignId, 'cancelled');
  }

  /**
   * Every pending row ends skipped with `reason` (a cancel: `cancelled`; the campaign cap reached:
   * `billing_limit`; the project's sending suspended: `sending_suspended`). Answers how many rows it ended.
   */
  static async skipPending(m: EntityManager, campaignId: string, reason: 'cancelled' | StopReason): Promise<number> {
    const result: unknown = await m.query(
      `UPDATE ${this.table(m)} SET status = 'skipped', reason = $2, contact = NULL, updated_at = now()
        WHERE campaign_id = $1 AND status = 'pending'`,
      [campaignId, reason],
    );
    return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
  }

  /**
   * `email.sent` / `email.failed` of a campaign email: the row becomes final. Matched by contact id
   * when the event has one, by address otherwise (never a `skipped: duplicate` row). Answers whether
   * a row changed.
   */
  static async finalise(
    m: EntityManager,
    campaignId: string,
    who: { contactId?: string; email: string; emailId?: string },
    outcome: { status: 'sent' | 'failed'; error?: string; at: Date },
  ): Promise<boolean> {
    const result: unknown = await m.query(
      `UPDATE ${this.table(m)} SET status = $4::varchar, error = $5::text,
              sent_at = CASE WHEN $4::varchar = 'sent' THEN $6::timestamptz END,
              email_id = COALESCE(email_id, $7::varchar), reason = NULL, contact = NULL, updated_at = now()
        WHERE campaign_id = $1 AND ${OPEN} AND reason IS DISTINCT FROM 'duplicate'
          AND (contact_id = $2::varchar OR ($2::varchar IS NULL AND email = $3::varchar))
        RETURNING 1`,
      [
        campaignId,
        who.contactId ?? null,
        who.email.trim().toLowerCase(),
        outcome.status,
        outcome.error ?? null,
        outcome.at,
        who.emailId ?? null,
      ],
    );
    // an UPDATE … RETURNING answers [rows, affected] through TypeORM's postgres driver
    return Array.isArray(result) && typeof result[1] === 'number' ? result[1] > 0 : (result as unknown[]).length > 0;
  }

  /**
   * `finalise` for a run of events in one go (a delivered batch of `email.sent` / `email.failed`):
   * two multi-row UPDATEs (rows found by contact id, rows found by address) instead of one per
   * email. The first event of a row wins, as it would applied one by one: a final row never moves.
   */
  static async finaliseMany(
    m: EntityManager,
    items: {
      campaignId: string;
      who: { contactId?: string; email: string; emailId?: string };
      outcome: { status: 'sent' | 'failed'; error?: string; at: Date };
    }[],
  ): Promise<void> {
    const seen = new Set<string>();
    const byContact: typeof items = [];
    const byAddress: typeof items = [];
    for (const it of items) {
      const email = it.who.email.trim().toLowerCase();
      const key = it.who.contactId
        ? `${it.campaignId}\u0000c\u0000${it.who.contactId}`
        : `${it.campaignId}\u0000e\u0000${email}`;
      if (seen.has(key)) continue;
      seen.add(key);
      (it.who.contactId ? byContact : byAddress).push({ ...it, who: { ...it.who, email } });
    }
    const t = this.table(m);
    // the rows are named by key lists as well as joined with the batch: the ledger's statistics may
    // date from before the audience was resolved (a campaign's rows are written in one burst), and
    // a planner that believes a campaign has a hundred rows scans all of them once per batch row
    for (const [rows, match] of [
      [byContact, 'l.contact_id = ANY($2::varchar[]) AND l.contact_id = o.contact_id'],
      [byAddress, 'l.email = ANY($3::varchar[]) AND l.email = o.email'],
    ] as const) {
      if (rows.length === 0) continue;
      await m.query(
        `UPDATE ${t} l SET status = o.status, error = o.error,
                sent_at = CASE WHEN o.status = 'sent' THEN o.at END,
                email_id = COALESCE(l.email_id, o.email_id), reason = NULL, contact = NULL, updated_at = now()
           FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::text[], $6::timestamptz[], $7::varchar[])
                AS o(campaign_id, contact_id, email, status, error, at, email_id)
          WHERE l.campaign_id = ANY($1::varchar[]) AND l.campaign_id = o.campaign_id AND ${match}
            AND (l.status IN ('pending', 'queued') OR (l.status = 'skipped' AND l.reason = 'cancelled'))
            AND l.reason IS DISTINCT FROM 'duplicate'`,
        [
          rows.map((r) => r.campaignId),
          rows.map((r) => r.who.contactId ?? null),
          rows.map((r) => r.who.email),
          rows.map((r) => r.outcome.status),
          rows.map((r) => r.outcome.error ?? null),
          rows.map((r) => r.outcome.at),
          rows.map((r) => r.who.emailId ?? null),
        ],
      );
    }
  }

  /**
   * Engagement (delivered, opened, clicked, bounced, complained, unsubscribed through the campaign's
   * link): the first time is kept; it implies sent.
   */
  static async engage(
    m: EntityManager,
    campaignId: string,
    who: { contactId?: string; email: string },
    kind: 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained' | 'unsubscribed',
    at: Date,
  ): Promise<void> {
    const col = `${kind}_at`;
    await m.query(
      `UPDATE ${this.table(m)} SET ${col} = COALESCE(${col}, $3::timestamptz),
              status = CASE WHEN ${OPEN} THEN 'sent' ELSE status END,
              reason = CASE WHEN ${OPEN} THEN NULL ELSE reason END,
              sent_at = COALESCE(sent_at, CASE WHEN ${OPEN} THEN $3::timestamptz END), updated_at = now()
        WHERE campaign_id = $1 AND reason IS DISTINCT FROM 'duplicate'
          AND status IN ('pending', 'queued', 'sent', 'skipped')
          AND ${who.contactId ? 'contact_id' : 'email'} = $2::varchar`,
      [campaignId, who.contactId ?? who.email.trim().toLowerCase(), at],
    );
  }

  static async counts(m: EntityManager, campaignId: string): Promise<LedgerCounts> {
    const [r] = await m.query<Record<string, number>[]>(
      `SELECT count(*)::int AS recipients,
              count(*) FILTER (WHERE status = 'pending')::int AS pending,
              count(*) FILTER (WHERE status = 'queued')::int AS queued,
              count(*) FILTER (WHERE status = 'sent')::int AS sent,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'skipped')::int AS skipped,
              count(*) FILTER (WHERE reason = 'unsubscribed')::int AS unsubscribed,
              count(*) FILTER (WHERE reason = 'suppressed')::int AS suppressed,
              count(*) FILTER (WHERE reason = 'duplicate')::int AS duplicate,
              count(*) FILTER (WHERE reason = 'invalid_address')::int AS "invalidAddress",
              count(*) FILTER (WHERE reason = 'cancelled')::int AS cancelled,
              count(*) FILTER (WHERE reason = 'billing_limit')::int AS "billingLimit",
              count(*) FILTER (WHERE reason = 'sending_suspended')::int AS "sendingSuspended",
              count(delivered_at)::int AS delivered, count(opened_at)::int AS opened,
              count(clicked_at)::int AS clicked, count(bounced_at)::int AS bounced,
              count(complained_at)::int AS complained, count(unsubscribed_at)::int AS "unsubscribedByLink"
         FROM ${this.table(m)} WHERE campaign_id = $1`,
      [campaignId],
    );
    return r as unknown as LedgerCounts;
  }
}
