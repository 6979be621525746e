import { EmailClicked, EmailOpened } from '@herald/contracts';
import { DomainError } from '@herald/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import { emailEventPayload } from '../delivery/email-events.js';
import { EmailHistory } from '../emails/email-history.js';
import type { Email } from '../emails/email.entity.js';
import { EmailsStore } from '../emails/emails.store.js';
import { ContactsClient, type RemoteContact } from '../send/contacts-client.js';

/** What links in emails record: the first open and the first click of each email, and subscription changes. */
@Injectable()
export class LinkTracking {
  constructor(
    @InjectDataSource(SENDING) private readonly db: DataSource,
    private readonly history: EmailHistory,
    private readonly contacts: ContactsClient,
    private readonly emails: EmailsStore,
  ) {}

  async opened(emailId: string): Promise<void> {
    await this.first(emailId, 'opened_at', (e) =>
      EmailOpened.create({ projectId: e.projectId!, source: SENDING, payload: emailEventPayload(e as Email) }),
    );
  }

  async clicked(emailId: string, url: string): Promise<void> {
    await this.first(emailId, 'clicked_at', (e) =>
      EmailClicked.create({
        projectId: e.projectId!,
        source: SENDING,
        payload: emailEventPayload(e as Email, { url }),
      }),
    );
  }

  /** The contact behind a link, or null when it no longer exists. */
  async contact(projectId: string, contactId: string): Promise<RemoteContact | null> {
    try {
      return await this.contacts.get(projectId, contactId);
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') return null;
      throw err;
    }
  }

  /**
   * The address an email went to, for the subscription links of an email sent to no contact (a
   * campaign's test send to an address that is not a contact, transactional mail to an unknown
   * recipient); null when the email is gone or is not the project's.
   */
  async recipient(projectId: string, emailId: string): Promise<string | null> {
    return this.emails.recipient(this.db.manager, projectId, emailId);
  }

  /**
   * Subscribes or unsubscribes the contact a link names. `emailId`: the email the link came in; its
   * id and campaign ride on the subscription event, so that the campaign's stats count the unsubscribe.
   */
  async setSubscription(
    projectId: string,
    contactId: string,
    subscribed: boolean,
    emailId?: string,
  ): Promise<RemoteContact | null> {
    try {
      return (
        await this.contacts.setSubscription(
          projectId,
          contactId,
          subscribed,
          subscribed ? 'subscribe-link' : 'unsubscribe-link',
          emailId ? await this.origin(projectId, emailId) : {},
        )
      ).contact;
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') return null;
      throw err;
    }
  }

  /** The email a link came in, and its campaign (none when the email is gone). */
  private async origin(projectId: string, emailId: string): Promise<{ emailId: string; campaignId?: string }> {
    const campaignId = await this.emails.campaignOf(this.db.manager, projectId, emailId);
    return { emailId, ...(campaignId ? { campaignId } : {}) };
  }

  private async first(
    emailId: string,
    column: 'opened_at' | 'clicked_at',
    event: (e: Partial<Email>) => ReturnType<typeof EmailOpened.create>,
  ): Promise<void> {
    await this.db.transaction(async (m) => {
      const first = await this.emails.stampFirst(m, emailId, column);
      if (first) await this.history.publish(m, [event(first)]);
    });
  }
}
