import { ContactsCalls, type ContactSnapshot, type UpsertContactAnswer } from '@herald/internal-contracts';
import { InternalCalls, type CallClient } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { SENDING } from '../consumer.js';

export type { ContactSnapshot as RemoteContact, UpsertContactAnswer as RemoteUpsert } from '@herald/internal-contracts';

/** One recipient's upsert of /v1/send (`idIfNew`: the id the contact gets if the call creates it, ignored when the address has one). */
export interface RecipientUpsert {
  email: string;
  subscribed?: boolean;
  data?: Record<string, unknown>;
  idIfNew?: string;
}

/**
 * The contacts service as the sending service needs it, answered at once (ContactsCalls): the
 * recipient upserts of /v1/send under contacts' own data rules, and subscription changes from links.
 */
@Injectable()
export class ContactsClient {
  private readonly contacts: CallClient<typeof ContactsCalls>;

  constructor(calls: InternalCalls) {
    this.contacts = calls.client(ContactsCalls, SENDING);
  }

  /**
   * Each recipient's contact upserted, in order, in one call (one transaction of contacts). The send
   * then inserts its emails in a durable commit before it answers success (`SendWrites`): in standalone mode
   * the upsert's own commit need not wait for the disk (`durableCommitFollows`).
   */
  async upsertMany(projectId: string, inputs: RecipientUpsert[], requestId?: string): Promise<UpsertContactAnswer[]> {
    const contacts = inputs.map((input) => ({ ...input, subscribedIfNew: false, reason: 'send' as const }));
    return (await this.contacts.upsertMany(projectId, { contacts }, { requestId, durableCommitFollows: true })).results;
  }

  setSubscription(
    projectId: string,
    contactId: string,
    subscribed: boolean,
    reason: 'unsubscribe-link' | 'subscribe-link',
    via: { emailId?: string; campaignId?: string } = {},
  ): Promise<{ contact: ContactSnapshot; changed: boolean }> {
    return this.contacts.setSubscription(projectId, { contactId, subscribed, reason, ...via });
  }

  /** The existing contacts of these addresses (at most 500; none is created). */
  async findByEmails(projectId: string, emails: string[], requestId?: string): Promise<ContactSnapshot[]> {
    if (emails.length === 0) return [];
    return (await this.contacts.find(projectId, { emails }, { requestId })).contacts;
  }

  get(projectId: string, contactId: string): Promise<ContactSnapshot> {
    return this.contacts.get(projectId, { contactId });
  }
}
