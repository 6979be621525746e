import { ContactsCalls, type ExportedContact, type UpsertContactAnswer } from '@herald/internal-contracts';
import { InternalCalls, type CallClient } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { SEGMENTS } from '../consumer.js';

export type { ExportedContact } from '@herald/internal-contracts';

/**
 * The contacts service as segments needs it, answered at once (ContactsCalls): `createMissing` of
 * `POST /segments/:id/members` creates contacts under contacts' own rules (and events); the read
 * model's backfill pages through the project's contacts.
 */
@Injectable()
export class ContactsClient {
  private readonly contacts: CallClient<typeof ContactsCalls>;

  constructor(calls: InternalCalls) {
    this.contacts = calls.client(ContactsCalls, SEGMENTS);
  }

  /** Creates the contact if the address has none; an existing contact is left as it is. */
  upsert(projectId: string, email: string, subscribedIfNew: boolean, requestId?: string): Promise<UpsertContactAnswer> {
    return this.contacts.upsert(projectId, { email, subscribedIfNew, reason: 'segment' }, { requestId });
  }

  /** A page of the project's contacts in id order, after `after` (the read model's backfill). */
  exportPage(
    projectId: string,
    after: string | null,
    limit: number,
  ): Promise<{ contacts: ExportedContact[]; next: string | null }> {
    return this.contacts.export(projectId, { ...(after ? { after } : {}), limit });
  }
}
