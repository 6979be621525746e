import { IsOptional, IsString } from 'class-validator';
import { IsEmailAddress } from '../../email-address.js';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

/**
 * What caused a subscription change (`reason` of `contact.subscribed` / `contact.unsubscribed`):
 * - `api`: the contacts API (POST /contacts, PATCH /contacts/:id);
 * - `track`: POST /v1/track with `subscribed`;
 * - `import`: a CSV import;
 * - `bulk`: a bulk-subscribe / bulk-unsubscribe job;
 * - `send`: POST /v1/send with `subscribed`;
 * - `workflow`: a workflow step;
 * - `unsubscribe-link`, `subscribe-link`: the links in an email (and the manage page);
 * - `bounce`: a permanent bounce; `complaint`: a spam complaint.
 * Every producer sets one. The field stays a plain string in the contract, so that a cause added
 * later never makes an older consumer reject the event.
 */
export const SUBSCRIPTION_CHANGE_REASONS = [
  'api',
  'track',
  'import',
  'bulk',
  'send',
  'workflow',
  'unsubscribe-link',
  'subscribe-link',
  'bounce',
  'complaint',
  'segment',
] as const;

export type SubscriptionChangeReason = (typeof SUBSCRIPTION_CHANGE_REASONS)[number];

/** Payload of both `contact.subscribed` and `contact.unsubscribed`. */
export class ContactSubscriptionChangedV1 {
  @IsString() contactId!: string;
  @IsEmailAddress() email!: string;
  /** What caused the change: one of SUBSCRIPTION_CHANGE_REASONS (set by every producer; optional in v1). */
  @IsOptional() @IsString() reason?: SubscriptionChangeReason;
  /** The email whose link made the change (`unsubscribe-link`, `subscribe-link`; optional in v1). */
  @IsOptional() @IsString() emailId?: string;
  /** The campaign of that email, when it was one's: its stats count the unsubscribe (optional in v1). */
  @IsOptional() @IsString() campaignId?: string;
}

export const ContactSubscribed = defineEvent({
  topic: Topics.ContactSubscribed,
  version: 1,
  payload: ContactSubscriptionChangedV1,
  key: (p) => p.contactId,
});

export const ContactUnsubscribed = defineEvent({
  topic: Topics.ContactUnsubscribed,
  version: 1,
  payload: ContactSubscriptionChangedV1,
  key: (p) => p.contactId,
});
