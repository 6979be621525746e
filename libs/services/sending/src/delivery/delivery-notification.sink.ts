import { normaliseEmail } from '@herald/contact-data';
import {
  EmailBounced,
  EmailComplained,
  EmailDelivered,
  type EmailLifecycleV1,
  type EventEnvelope,
} from '@herald/contracts';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import { DeliveryNotice } from '../emails/delivery-notice.entity.js';
import { EmailHistory } from '../emails/email-history.js';
import { Email, emailFromRow } from '../emails/email.entity.js';
import { Suppression } from '../emails/suppression.entity.js';
import { DeliveryNotificationSink, type DeliveryNotification } from './delivery-notification.js';
import { emailEventPayload } from './email-events.js';

/**
 * Applies relay notifications: finds the email (by Herald id or Message-ID), marks it delivered,
 * bounced or complained, suppresses the address for permanent bounces and complaints (contacts
 * unsubscribes the contact on the email.* event), all in one transaction with the notice id, so a
 * repeated notification changes nothing.
 */
@Injectable()
export class EmailNotificationSink extends DeliveryNotificationSink {
  constructor(
    @InjectDataSource(SENDING) private readonly db: DataSource,
    private readonly history: EmailHistory,
  ) {
    super();
  }

  async record(n: DeliveryNotification): Promise<{ duplicate: boolean; matched: number }> {
    return this.db.transaction(async (m) => {
      const fresh: unknown[] = await m.query(
        `INSERT INTO ${tableName(m, DeliveryNotice)} (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id`,
        [`${n.source}:${n.notificationId}`],
      );
      if (fresh.length === 0) return { duplicate: true, matched: 0 };
      const messageId = n.messageId?.replace(/^<|>$/g, '');
      const recipients = n.recipients.map(normaliseEmail);
      const rows: Record<string, unknown>[] = await m.query(
        `SELECT * FROM ${tableName(m, Email)} WHERE (id = $1 OR message_id = $2) AND to_email = ANY($3::varchar[]) FOR UPDATE`,
        [n.emailId ?? '', messageId ?? '', recipients],
      );
      const emails = rows.map((r) => emailFromRow(r) as Email);
      const events: EventEnvelope<EmailLifecycleV1>[] = [];
      const table = tableName(m, Email);
      for (const email of emails) {
        const payload = (extra: Partial<EmailLifecycleV1>) =>
          emailEventPayload(email, { ...extra, ...(n.reason ? { reason: n.reason } : {}) });
        if (n.type === 'delivery') {
          await m.query(`UPDATE ${table} SET status = 'delivered' WHERE id = $1 AND status = 'sent'`, [email.id]);
          events.push(EmailDelivered.create({ projectId: email.projectId, source: SENDING, payload: payload({}) }));
          continue;
        }
        if (n.type === 'bounce') {
          const permanent = n.bounceType === 'permanent';
          if (permanent)
            await m.query(`UPDATE ${table} SET status = 'bounced', bounced_at = now(), error = $2 WHERE id = $1`, [
              email.id,
              n.reason ?? 'Bounced',
            ]);
          events.push(
            EmailBounced.create({
              projectId: email.projectId,
              source: SENDING,
              payload: payload({ bounceType: permanent ? 'permanent' : 'transient' }),
            }),
          );
          if (permanent) await this.suppress(m, email, 'bounce', n.reason);
        } else {
          await m.query(`UPDATE ${table} SET complained_at = now() WHERE id = $1`, [email.id]);
          events.push(EmailComplained.create({ projectId: email.projectId, source: SENDING, payload: payload({}) }));
          await this.suppress(m, email, 'complaint', n.reason);
        }
      }
      await this.history.publish(m, events);
      return { duplicate: false, matched: emails.length };
    });
  }

  private async suppress(
    m: import('typeorm').EntityManager,
    email: Email,
    reason: 'bounce' | 'complaint',
    detail?: string,
  ): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, Suppression)} (project_id, email, reason, detail) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [email.projectId, email.toEmail, reason, detail ?? null],
    );
  }
}
