import { deepEqual, upsertOutcome } from '@herald/contact-data';
import { invalidInput, newId } from '@herald/core';
import type { RenderContact } from '../render/contact-variables.js';
import type { RemoteContact } from './contacts-client.js';
import type { Mailbox, SendRequest } from './send-request.js';

/** One recipient of a /v1/send request before anything is written. */
export interface PlannedRecipient {
  recipient: Mailbox;
  /**
   * Its contact as the upsert will make it: the existing contact with the request's data and
   * subscription applied, or a new one with the id sending proposes (`isNew`). Timestamps of a
   * contact the upsert creates or changes are the database's: the planned ones are a stand-in.
   */
  contact: RenderContact;
  isNew: boolean;
  /** The request's non-persistent values, for rendering. */
  transient: Record<string, unknown>;
}

/**
 * What the upserts of a /v1/send will make of each recipient's contact, computed from the
 * contacts that exist now (`found`) under contacts' own rule (`upsertOutcome` of
 * @herald/contact-data, which contacts' writer applies): a new contact of /v1/send is unsubscribed
 * unless the request says otherwise. Recipients are applied in order, so an address listed twice
 * is created once. Throws the 422 contacts would answer when a contact's data would break a data
 * limit, before anything is written.
 */
export function planRecipients(
  request: Pick<SendRequest, 'to' | 'data' | 'subscribed'>,
  found: RemoteContact[],
  now = new Date(),
): PlannedRecipient[] {
  const current = new Map<string, RenderContact>(found.map((c) => [c.email, c]));
  const at = now.toISOString();
  return request.to.map((recipient) => {
    const before = current.get(recipient.email);
    const outcome = upsertOutcome(before, { subscribed: request.subscribed, data: request.data }, false);
    if (outcome.problem) throw invalidInput([outcome.problem]);
    const changed = !before || outcome.changedKeys.length > 0;
    const contact: RenderContact = {
      id: before?.id ?? newId('cnt'),
      email: recipient.email,
      subscribed: outcome.subscribed,
      data: changed ? outcome.data : before.data,
      createdAt: before?.createdAt ?? at,
      updatedAt: changed ? at : before.updatedAt,
    };
    current.set(recipient.email, contact);
    return { recipient, contact, isNew: !before, transient: outcome.transient };
  });
}

/**
 * How the contact an upsert answered differs from the one planned: `none` (it renders exactly as
 * planned), `timestamps` (only the database's createdAt/updatedAt), or `contact` (another id,
 * subscription or data: another request created or changed it between the plan and the write).
 */
export function contactDifference(planned: RenderContact, written: RemoteContact): 'none' | 'timestamps' | 'contact' {
  if (
    planned.id !== written.id ||
    planned.email !== written.email ||
    planned.subscribed !== written.subscribed ||
    !deepEqual(planned.data, written.data)
  )
    return 'contact';
  return planned.createdAt === written.createdAt && planned.updatedAt === written.updatedAt ? 'none' : 'timestamps';
}
