import { normaliseEmail } from '@herald/contact-data';
import {
  EmailBounced,
  EmailComplained,
  EmailDelivered,
  type EmailLifecycleV1,
  type EventEnvelope,
} from '@herald/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import { EmailHistory } from '../emails/email-history.js';
import { DeliveryNotificationSink, type DeliveryNotification } from './delivery-notification.js';
import { emailEventPayload } from './email-events.js';
import { NotificationStore } from './notification-store.js';

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
    private readonly store: NotificationStore,
  ) {
    super();
  }

  async record(n: DeliveryNotification): Promise<{ duplicate: boolean; matched: number }> {
    return this.db.transaction(async (m) => {
      if (!(await this.store.claimNotice(m, `${n.source}:${n.notificationId}`))) return { duplicate: true, matched: 0 };
      const messageId = n.messageId?.replace(/^<|>$/g, '');
      const recipients = n.recipients.map(normaliseEmail);
      const emails = await this.store.lockMatching(m, n.emailId ?? '', messageId ?? '', recipients);
      const events: EventEnvelope<EmailLifecycleV1>[] = [];
      for (const email of emails) {
        const payload = (extra: Partial<EmailLifecycleV1>) =>
          emailEventPayload(email, { ...extra, ...(n.reason ? { reason: n.reason } : {}) });
        if (n.type === 'delivery') {
          await this.store.markDelivered(m, email.id);
          events.push(EmailDelivered.create({ projectId: email.projectId, source: SENDING, payload: payload({}) }));
          continue;
        }
        if (n.type === 'bounce') {
          const permanent = n.bounceType === 'permanent';
          if (permanent) await this.store.markBounced(m, email.id, n.reason ?? 'Bounced');
          events.push(
            EmailBounced.create({
              projectId: email.projectId,
              source: SENDING,
              payload: payload({ bounceType: permanent ? 'permanent' : 'transient' }),
            }),
          );
          if (permanent) await this.store.suppress(m, email.projectId, email.toEmail, 'bounce', n.reason ?? null);
        } else {
          await this.store.markComplained(m, email.id);
          events.push(EmailComplained.create({ projectId: email.projectId, source: SENDING, payload: payload({}) }));
          await this.store.suppress(m, email.projectId, email.toEmail, 'complaint', n.reason ?? null);
        }
      }
      await this.history.publish(m, events);
      return { duplicate: false, matched: emails.length };
    });
  }
}
