import { isValidEmail, normaliseEmail } from '@herald/contact-data';
import { EmailReceived } from '@herald/contracts';
import { createLogger, newId } from '@herald/core';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import { ContactsClient } from '../send/contacts-client.js';
import { inboundContent, type InboundContent } from './inbound-content.js';
import type { InboundMessage } from './inbound-message.entity.js';
import { parseInbound } from './inbound-parser.js';
import {
  recipientDomain,
  recipientsByProject,
  referencedMessageIds,
  repliedEmail,
  senderOf,
  type Sender,
} from './inbound-rules.js';
import { INBOUND_SETTINGS, type InboundSettings } from './inbound.settings.js';
import { InboundStore } from './inbound.store.js';

const log = createLogger('sending.inbound');

/** A message's SMTP envelope: MAIL FROM, and the recipients accepted at RCPT TO with the projects each reaches. */
export interface InboundEnvelope {
  /** '' for the null sender (`<>`). */
  from: string;
  recipients: { address: string; projectIds: string[] }[];
}

/**
 * Receives inbound mail (docs/inbound.md): which projects an address reaches, and each accepted
 * message stored once per project with `email.received` in the same transaction. The message is
 * linked to the project's existing contact of its sender (an unknown sender makes no contact) and to
 * the project's email it answers (In-Reply-To, then References, against Herald's Message-IDs).
 */
@Injectable()
export class ReceiveInboundUseCase {
  constructor(
    @InjectDataSource(SENDING) private readonly db: DataSource,
    @InjectOutbox(SENDING) private readonly outbox: Outbox,
    @Inject(INBOUND_SETTINGS) private readonly settings: InboundSettings,
    private readonly store: InboundStore,
    private readonly contacts: ContactsClient,
  ) {}

  /**
   * The projects an envelope recipient reaches: every project in which its domain is a verified
   * sender domain (any local part). None: the address is unknown here (RCPT TO answers 550).
   */
  async projectsOf(address: string): Promise<string[]> {
    const domain = recipientDomain(address);
    if (!domain || !isValidEmail(normaliseEmail(address))) return [];
    return this.store.projectsOfDomain(this.db.manager, domain);
  }

  /**
   * Stores a message for each project its recipients reach and publishes `email.received` for each;
   * answers the ids stored (a message the project already has, by Message-ID, is not stored again).
   * Throws when contacts cannot be asked or the database fails: the SMTP answer is then a temporary
   * failure, and the sending server tries again.
   */
  async receive(envelope: InboundEnvelope, raw: Buffer): Promise<string[]> {
    const byProject = recipientsByProject(envelope.recipients);
    if (byProject.size === 0) return [];
    const parsed = await parseInbound(raw);
    const content = inboundContent(parsed, this.settings.INBOUND_MAX_ATTACHMENT_BYTES);
    const sender = senderOf(parsed.from, envelope.from);
    const referenced = referencedMessageIds(parsed.inReplyTo, parsed.references);
    const contactOf = await this.senderContacts([...byProject.keys()], sender);
    const stored = await this.db.transaction(async (m) => {
      const ids: string[] = [];
      for (const [projectId, recipients] of byProject) {
        const replied = repliedEmail(referenced, await this.store.emailsByMessageId(m, projectId, referenced));
        const message = messageRow(content, {
          projectId,
          recipients,
          sender,
          envelopeFrom: envelope.from,
          contactId: contactOf.get(projectId) ?? null,
          replied,
          size: raw.length,
        });
        if (!(await this.store.insert(m, message))) continue;
        await this.outbox.add(
          m,
          EmailReceived.create({ projectId, source: SENDING, payload: receivedPayload(message) }),
        );
        ids.push(message.id);
      }
      return ids;
    });
    log.info('inbound message received', { stored: stored.length, projects: byProject.size, size: raw.length });
    return stored;
  }

  /** The sender's existing contact in each project (a contact is never created for an inbound sender). */
  private async senderContacts(projectIds: string[], sender: Sender | undefined): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (!sender) return found;
    await Promise.all(
      projectIds.map(async (projectId) => {
        const [contact] = await this.contacts.findByEmails(projectId, [sender.email]);
        if (contact) found.set(projectId, contact.id);
      }),
    );
    return found;
  }
}

/** The stored message of one project. */
export function messageRow(
  content: InboundContent,
  to: {
    projectId: string;
    recipients: string[];
    sender: Sender | undefined;
    envelopeFrom: string;
    contactId: string | null;
    replied: { id: string; campaignId: string | null; workflowId: string | null } | undefined;
    size: number;
  },
): Omit<InboundMessage, 'createdAt'> {
  return {
    id: newId('inb'),
    projectId: to.projectId,
    contactId: to.contactId,
    fromEmail: to.sender?.email ?? null,
    fromName: to.sender?.name ?? null,
    envelopeFrom: to.envelopeFrom.slice(0, 320),
    recipients: to.recipients,
    subject: content.subject,
    messageId: content.messageId,
    text: content.text,
    html: content.html,
    headers: content.headers,
    attachments: content.attachments,
    inReplyToEmailId: to.replied?.id ?? null,
    campaignId: to.replied?.campaignId ?? null,
    workflowId: to.replied?.workflowId ?? null,
    size: to.size,
  };
}

/** The `email.received` payload of a stored message (its content stays in sending: GET /inbound/:id). */
export function receivedPayload(m: Omit<InboundMessage, 'createdAt'>) {
  return {
    inboundId: m.id,
    ...(m.contactId ? { contactId: m.contactId } : {}),
    ...(m.fromEmail ? { email: m.fromEmail } : {}),
    ...(m.fromName ? { name: m.fromName } : {}),
    to: m.recipients,
    ...(m.subject ? { subject: m.subject } : {}),
    ...(m.messageId ? { messageId: m.messageId } : {}),
    ...(m.inReplyToEmailId ? { inReplyToEmailId: m.inReplyToEmailId } : {}),
    ...(m.campaignId ? { campaignId: m.campaignId } : {}),
    ...(m.workflowId ? { workflowId: m.workflowId } : {}),
    attachments: m.attachments.length,
    size: m.size,
  };
}
