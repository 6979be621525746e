import { InternalClient } from '@herald/auth';
import { HERALD_RUNTIME, internalBaseUrl, type HeraldRuntime } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { SENDING } from '../consumer.js';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';

/** A contact as the contacts service answers it (its ContactView). */
export interface RemoteContact {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface RemoteUpsert {
  contact: RemoteContact;
  created: boolean;
  changedKeys: string[];
  transient: Record<string, unknown>;
}

/**
 * The contacts service as the sending service needs it, answered at once (internal HTTP): the
 * recipient upsert of /v1/send under contacts' own data rules, and subscription changes from links.
 */
@Injectable()
export class ContactsClient {
  private readonly client: InternalClient;

  constructor(@Inject(SENDING_SETTINGS) settings: SendingSettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    const baseUrl = () => internalBaseUrl(runtime, settings.CONTACTS_URL, 'CONTACTS_URL');
    this.client = new InternalClient(SENDING, 'contacts', baseUrl, runtime.internalJwtSecret);
  }

  /** `idIfNew`: the id the contact gets if this call creates it (ignored when the address has one). */
  upsert(
    projectId: string,
    input: { email: string; subscribed?: boolean; data?: Record<string, unknown>; idIfNew?: string },
    requestId?: string,
  ): Promise<RemoteUpsert> {
    return this.client.post(
      projectId,
      '/internal/contacts/upsert',
      { ...input, subscribedIfNew: false, reason: 'send' },
      requestId,
    );
  }

  setSubscription(
    projectId: string,
    contactId: string,
    subscribed: boolean,
    reason: 'unsubscribe-link' | 'subscribe-link',
    via: { emailId?: string; campaignId?: string } = {},
  ): Promise<{ contact: RemoteContact; changed: boolean }> {
    return this.client.post(projectId, '/internal/contacts/subscription', { contactId, subscribed, reason, ...via });
  }

  /** The existing contacts of these addresses (at most 500; none is created). */
  async findByEmails(projectId: string, emails: string[], requestId?: string): Promise<RemoteContact[]> {
    if (emails.length === 0) return [];
    return (
      await this.client.post<{ contacts: RemoteContact[] }>(projectId, '/internal/contacts/find', { emails }, requestId)
    ).contacts;
  }

  get(projectId: string, contactId: string): Promise<RemoteContact> {
    return this.client.post(projectId, '/internal/contacts/get', { contactId });
  }
}
