import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DeliveryNotice } from '../emails/delivery-notice.entity.js';
import { Email, emailFromRow } from '../emails/email.entity.js';
import { Suppression } from '../emails/suppression.entity.js';

/**
 * What relay notifications write (EmailNotificationSink decides it), each in the caller's
 * transaction: the notice ids applied once (`delivery_notices`), the emails a notice matches, locked,
 * their delivery, bounce and complaint, and the suppression of their address.
 */
@Injectable()
export class NotificationStore {
  /** Records a notice's id; false when it was recorded before (a repeated notification). */
  async claimNotice(m: EntityManager, id: string): Promise<boolean> {
    const fresh: unknown[] = await m.query(
      `INSERT INTO ${tableName(m, DeliveryNotice)} (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id`,
      [id],
    );
    return fresh.length > 0;
  }

  /**
   * The emails a notice names, by Herald's id or the Message-ID (`''`: neither), that went to one of
   * `recipients`, each locked until the caller's commit.
   */
  async lockMatching(m: EntityManager, emailId: string, messageId: string, recipients: string[]): Promise<Email[]> {
    const rows: Record<string, unknown>[] = await m.query(
      `SELECT * FROM ${tableName(m, Email)} WHERE (id = $1 OR message_id = $2) AND to_email = ANY($3::varchar[]) FOR UPDATE`,
      [emailId, messageId, recipients],
    );
    return rows.map((r) => emailFromRow(r) as Email);
  }

  /** A `sent` email becomes `delivered` (any other status stays). */
  async markDelivered(m: EntityManager, id: string): Promise<void> {
    await m.query(`UPDATE ${tableName(m, Email)} SET status = 'delivered' WHERE id = $1 AND status = 'sent'`, [id]);
  }

  /** The email bounced for good, now, with the relay's reason. */
  async markBounced(m: EntityManager, id: string, error: string): Promise<void> {
    await m.query(
      `UPDATE ${tableName(m, Email)} SET status = 'bounced', bounced_at = now(), error = $2 WHERE id = $1`,
      [id, error],
    );
  }

  /** The email's recipient complained, now. */
  async markComplained(m: EntityManager, id: string): Promise<void> {
    await m.query(`UPDATE ${tableName(m, Email)} SET complained_at = now() WHERE id = $1`, [id]);
  }

  /** Puts the address on the project's suppression list (kept as first suppressed when it is there already). */
  async suppress(
    m: EntityManager,
    projectId: string,
    email: string,
    reason: 'bounce' | 'complaint',
    detail: string | null,
  ): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, Suppression)} (project_id, email, reason, detail) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [projectId, email, reason, detail],
    );
  }
}
