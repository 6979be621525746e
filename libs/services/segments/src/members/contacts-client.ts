import { InternalClient } from '@herald/auth';
import { HERALD_RUNTIME, internalBaseUrl, type HeraldRuntime } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { SEGMENTS } from '../consumer.js';
import { SEGMENTS_SETTINGS, type SegmentsSettings } from '../segments.settings.js';

/** One contact of contacts' export (`POST /internal/contacts/export`), with its custom events. */
export interface ExportedContact {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  events: { id: string; name: string; at: string }[];
}

export interface RemoteUpsert {
  contact: { id: string; email: string };
  created: boolean;
}

/**
 * The contacts service as segments needs it, answered at once (internal HTTP): `createMissing` of
 * `POST /segments/:id/members` creates contacts under contacts' own rules (and events).
 */
@Injectable()
export class ContactsClient {
  private readonly client: InternalClient;

  constructor(@Inject(SEGMENTS_SETTINGS) settings: SegmentsSettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    const baseUrl = () => internalBaseUrl(runtime, settings.CONTACTS_URL, 'CONTACTS_URL');
    this.client = new InternalClient(SEGMENTS, 'contacts', baseUrl, runtime.internalJwtSecret);
  }

  /** Creates the contact if the address has none; an existing contact is left as it is. */
  upsert(projectId: string, email: string, subscribedIfNew: boolean, requestId?: string): Promise<RemoteUpsert> {
    return this.client.post(
      projectId,
      '/internal/contacts/upsert',
      { email, subscribedIfNew, reason: 'segment' },
      requestId,
    );
  }

  /** A page of the project's contacts in id order, after `after` (the read model's backfill). */
  exportPage(
    projectId: string,
    after: string | null,
    limit: number,
  ): Promise<{ contacts: ExportedContact[]; next: string | null }> {
    return this.client.post(projectId, '/internal/contacts/export', { ...(after ? { after } : {}), limit });
  }
}
