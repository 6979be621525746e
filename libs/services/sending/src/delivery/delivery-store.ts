import { tableName } from '@herald/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { Email, emailFromRow } from '../emails/email.entity.js';
import { Suppression } from '../emails/suppression.entity.js';

/** Emails leaving a batch with the same new status, each with its detail (the email's `error`). */
export interface StatusWrite {
  ids: string[];
  details: (string | null)[];
}

/** Everything a batch's outcomes write to the emails table and the suppression list (OutcomeRecorder decides it). */
export interface OutcomeWrites {
  /** → `sent`; the detail is kept only when the relay's answer was lost after the hand-off. */
  sent: StatusWrite;
  /** → `suppressed`, `failed` or `bounced` (which also stamps `bounced_at`). */
  ended: (StatusWrite & { status: 'suppressed' | 'failed' | 'bounced' })[];
  /** → back to `queued`, due again after each one's delay. */
  retry: StatusWrite & { delaysMs: number[] };
  /** Addresses that bounced: never sent to again in their project. */
  suppress: { projectId: string; email: string; detail: string }[];
  /** Test mode's simulated deliveries (docs/test-mode.md): `sent` (above), then at once `delivered`. */
  delivered: string[];
  /** Test mode's simulated complaints: delivered (above), with `complained_at` stamped. */
  complained: string[];
}

/** The SQL condition on `priority` of each delivery lane's claim (delivery-lanes.ts). */
const LANE_FILTER = { normal: 'priority <= 0', bulk: 'priority >= 1' } as const;

/**
 * The rows of these ids (`$1`), locked in id order: every statement of delivery that locks several
 * rows of the emails table takes them this way first, so that the batches in flight, their lease
 * renewals and their hand-offs never wait on each other in a cycle (a deadlock); a claim skips
 * locked rows. `where`: a further condition.
 */
const inIdOrder = (table: string, where?: string) =>
  `SELECT id FROM ${table} WHERE id = ANY($1::varchar[])${where ? ` AND ${where}` : ''} ORDER BY id FOR UPDATE`;

/** The key of a (project, address) pair in `suppressedOf`'s answer. */
export const suppressionKey = (projectId: string, address: string) => `${projectId}\u0000${address}`;

/**
 * The delivery worker's SQL on the emails table (which is the queue), the suppression list and the
 * `Idempotency-Key`s of /v1/send: claims, hand-offs, leases, outcomes, recovery. No decisions here:
 * the callers say what to write.
 */
export class DeliveryStore {
  constructor(private readonly db: DataSource) {}

  private get emails(): string {
    return tableName(this.db, Email);
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Claims up to `limit` due emails of a lane (`FOR UPDATE SKIP LOCKED`: replicas never claim the
   * same one), leased for `leaseMs`, with one more attempt counted; lowest priority first.
   * `testModeOnly`: only test-mode emails (a worker without a relay simulates those and leaves the rest queued).
   */
  async claim(lane: keyof typeof LANE_FILTER, limit: number, leaseMs: number, testModeOnly = false): Promise<Email[]> {
    const table = this.emails;
    const [rows] = (await this.db.query(
      `UPDATE ${table} SET status = 'sending', attempts = attempts + 1, lease_until = now() + ($2 || ' milliseconds')::interval, handoff_at = NULL
        WHERE id IN (SELECT id FROM ${table} WHERE status = 'queued' AND ${LANE_FILTER[lane]}${testModeOnly ? ' AND test_mode' : ''} AND next_attempt_at <= now()
                     ORDER BY priority, next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [limit, String(leaseMs)],
    )) as [Record<string, unknown>[], number];
    return rows.map((r) => this.toEmail(r)).sort((a, b) => a.priority - b.priority);
  }

  /** The (project, address) pairs of these emails that are on the suppression list (`suppressionKey`). */
  async suppressedOf(emails: Pick<Email, 'projectId' | 'toEmail'>[]): Promise<Set<string>> {
    const rows: { project_id: string; email: string }[] = await this.db.query(
      `SELECT s.project_id, s.email FROM ${tableName(this.db, Suppression)} s
        JOIN unnest($1::varchar[], $2::varchar[]) AS x(project_id, email) ON s.project_id = x.project_id AND s.email = x.email`,
      [emails.map((e) => e.projectId), emails.map((e) => e.toEmail)],
    );
    return new Set(rows.map((r) => suppressionKey(r.project_id, r.email)));
  }

  /** Records that these emails are being handed to the relay (only those still being sent; rows locked in id order). */
  async recordHandoffs(ids: string[]): Promise<void> {
    await this.db.query(
      `UPDATE ${this.emails} SET handoff_at = now() WHERE id IN (${inIdOrder(this.emails, "status = 'sending'")}) AND status = 'sending'`,
      [ids],
    );
  }

  /** Extends the lease of these emails to `leaseMs` from now (only those still being sent; rows locked in id order). */
  async renewLeases(ids: string[], leaseMs: number): Promise<void> {
    await this.db.query(
      `UPDATE ${this.emails} SET lease_until = now() + ($2 || ' milliseconds')::interval WHERE id IN (${inIdOrder(this.emails, "status = 'sending'")}) AND status = 'sending'`,
      [ids, String(leaseMs)],
    );
  }

  /**
   * Writes a batch's outcomes (in the caller's transaction, with their events). The batch's rows are
   * locked first, in id order, as every other statement of delivery locks them (`inIdOrder`).
   */
  async applyOutcomes(m: EntityManager, writes: OutcomeWrites): Promise<void> {
    const table = tableName(m, Email);
    const ids = [
      ...writes.sent.ids,
      ...writes.ended.flatMap((w) => w.ids),
      ...writes.retry.ids,
      ...writes.delivered,
      ...writes.complained,
    ];
    if (ids.length > 0) await m.query(inIdOrder(table), [ids]);
    if (writes.sent.ids.length > 0) {
      await m.query(
        `UPDATE ${table} AS e SET status = 'sent', sent_at = now(), lease_until = NULL, error = CASE WHEN x.detail LIKE 'The relay''s answer%' THEN x.detail ELSE NULL END
           FROM unnest($1::varchar[], $2::text[]) AS x(id, detail) WHERE e.id = x.id`,
        [writes.sent.ids, writes.sent.details],
      );
    }
    if (writes.delivered.length > 0)
      await m.query(`UPDATE ${table} SET status = 'delivered' WHERE id = ANY($1::varchar[]) AND status = 'sent'`, [
        writes.delivered,
      ]);
    if (writes.complained.length > 0)
      await m.query(`UPDATE ${table} SET complained_at = now() WHERE id = ANY($1::varchar[])`, [writes.complained]);
    for (const w of writes.ended) {
      if (w.ids.length === 0) continue;
      await m.query(
        `UPDATE ${table} AS e SET status = $3::varchar, lease_until = NULL, error = x.detail, bounced_at = CASE WHEN $3::varchar = 'bounced' THEN now() ELSE e.bounced_at END
           FROM unnest($1::varchar[], $2::text[]) AS x(id, detail) WHERE e.id = x.id`,
        [w.ids, w.details, w.status],
      );
    }
    if (writes.retry.ids.length > 0) {
      await m.query(
        `UPDATE ${table} AS e SET status = 'queued', lease_until = NULL, handoff_at = NULL, error = x.detail, next_attempt_at = now() + (x.delay || ' milliseconds')::interval
           FROM unnest($1::varchar[], $2::text[], $3::varchar[]) AS x(id, detail, delay) WHERE e.id = x.id`,
        [writes.retry.ids, writes.retry.details, writes.retry.delaysMs.map(String)],
      );
    }
    if (writes.suppress.length > 0) {
      const rows = writes.suppress;
      await m.query(
        `INSERT INTO ${tableName(m, Suppression)} (project_id, email, reason, detail)
         SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::text[]) ON CONFLICT DO NOTHING`,
        [rows.map((r) => r.projectId), rows.map((r) => r.email), rows.map(() => 'bounce'), rows.map((r) => r.detail)],
      );
    }
  }

  /**
   * Emails whose lease expired (their worker stopped): back to the queue, or `sent` at their
   * hand-off's time when it was recorded (rows locked in id order, as `inIdOrder`). Returns how many
   * were requeued and the emails now sent.
   */
  async recoverExpired(m: EntityManager): Promise<{ requeued: number; sent: Email[] }> {
    const [rows] = (await m.query(
      `UPDATE ${tableName(m, Email)} SET lease_until = NULL,
              status = CASE WHEN handoff_at IS NULL THEN 'queued' ELSE 'sent' END,
              sent_at = CASE WHEN handoff_at IS NULL THEN NULL ELSE handoff_at END,
              error = CASE WHEN handoff_at IS NULL THEN error ELSE 'Recovered after a worker stopped mid-delivery; the hand-off was recorded, so it counts as sent and is never resent' END
        WHERE id IN (SELECT id FROM ${tableName(m, Email)} WHERE status = 'sending' AND lease_until < now() ORDER BY id FOR UPDATE)
          AND status = 'sending' AND lease_until < now() RETURNING *`,
    )) as [Record<string, unknown>[], number];
    const sent = rows.filter((r) => r.status === 'sent').map((r) => this.toEmail(r));
    return { requeued: rows.length - sent.length, sent };
  }

  private toEmail(row: Record<string, unknown>): Email {
    return this.db.getRepository(Email).create(emailFromRow(row));
  }
}
