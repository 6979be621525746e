import { upsertOutcome } from '@herald/contact-data';
import {
  ContactCreated,
  ContactSubscribed,
  ContactUnsubscribed,
  ContactUpdated,
  type EventEnvelope,
  type SubscriptionChangeReason,
} from '@herald/contracts';
import { newId } from '@herald/core';
import { CONTACTS } from '../consumer.js';
import { ContactErrors } from './contact.errors.js';
import type { Contact } from './contact.entity.js';

export interface ContactInput {
  email: string;
  /** Set the subscription; absent keeps an existing contact's state. */
  subscribed?: boolean;
  data?: Record<string, unknown>;
}

export interface WriteContext {
  projectId: string;
  /** Subscription of a contact created by this write when `subscribed` is absent. */
  subscribedIfNew: boolean;
  /** What caused it: carried by subscription events (the contact's timeline shows it). */
  reason: SubscriptionChangeReason;
  correlationId?: string;
  /** The W3C trace context of the request that wrote it, taken where a batch groups several (ADR 0019). */
  traceparent?: string;
  /** The email (and its campaign) whose link caused a subscription change: carried by its event. */
  via?: { emailId?: string; campaignId?: string };
}

export interface ContactWrite {
  contact: Contact;
  created: boolean;
  /** `email`, `subscribed`, `data.<key>` that changed. */
  changedKeys: string[];
  /** Non-persistent values of this request, for rendering. */
  transient: Record<string, unknown>;
}

export interface ApplyOptions {
  projectId: string;
  subscribedIfNew: boolean;
  /** The id a contact this write creates gets; a fresh one when absent. */
  idIfNew?: string;
  /** The timestamps a contact this write creates or changes gets (until the database's replace them). */
  now: Date;
}

/**
 * The one rule of every contact write (API, /v1/track, CSV rows, bulk jobs, /v1/send, workflows):
 * what `input` makes of the contact `before` (null: the write creates it). The subscription, the
 * data patch, the normalised address and the changed keys are `upsertOutcome`'s (@herald/contact-data,
 * which /v1/send plans with); this adds what the stored contact needs: a new contact's id and
 * timestamps, and an unchanged contact stays the very object read (`changedKeys` empty). Throws the
 * 422 of the data limits (docs/contacts.md) when the result could not be stored, whichever path wrote it.
 */
export function applyContactInput(
  before: Contact | null,
  input: Partial<ContactInput>,
  options: ApplyOptions,
): ContactWrite {
  const outcome = upsertOutcome(before ?? undefined, input, options.subscribedIfNew);
  if (outcome.problem) throw ContactErrors.invalidData(outcome.problem);
  const { subscribed, data, changedKeys, transient } = outcome;
  if (!before) {
    if (outcome.email === undefined) throw new Error('a contact is created from an input with an email');
    const contact = {
      id: options.idIfNew ?? newId('cnt'),
      projectId: options.projectId,
      email: outcome.email,
      subscribed,
      data,
      createdAt: options.now,
      updatedAt: options.now,
    } as Contact;
    return { contact, created: true, changedKeys, transient };
  }
  if (changedKeys.length === 0) return { contact: before, created: false, changedKeys, transient };
  const contact = { ...before, email: outcome.email!, subscribed, data, updatedAt: options.now } as Contact;
  return { contact, created: false, changedKeys, transient };
}

/** The envelope fields of every contact event of a write. */
export const eventMeta = (ctx: WriteContext) => ({
  projectId: ctx.projectId,
  source: CONTACTS,
  ...(ctx.correlationId ? { correlationId: ctx.correlationId } : {}),
  ...(ctx.traceparent ? { traceparent: ctx.traceparent } : {}),
});

/**
 * The events of a write, as `applyContactInput` answered it (its `contact` as stored): a created
 * contact is `contact.created`; a changed one `contact.updated` with its changed keys, followed by
 * `contact.subscribed` or `contact.unsubscribed` (with the context's reason and link) when the
 * subscription is one of them; an unchanged one none.
 */
export function contactEventsOf(write: ContactWrite, ctx: WriteContext): EventEnvelope[] {
  const { contact, changedKeys } = write;
  const { id: contactId, email, subscribed, data } = contact;
  if (write.created)
    return [ContactCreated.create({ ...eventMeta(ctx), payload: { contactId, email, subscribed, data } })];
  if (changedKeys.length === 0) return [];
  const events: EventEnvelope[] = [
    ContactUpdated.create({ ...eventMeta(ctx), payload: { contactId, email, subscribed, data, changedKeys } }),
  ];
  if (changedKeys.includes('subscribed')) {
    const contract = subscribed ? ContactSubscribed : ContactUnsubscribed;
    events.push(contract.create({ ...eventMeta(ctx), payload: { contactId, email, reason: ctx.reason, ...ctx.via } }));
  }
  return events;
}
