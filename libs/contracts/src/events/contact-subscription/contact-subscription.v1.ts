import { IsOptional, IsString } from 'class-validator';
import { IsEmailAddress } from '../../email-address.js';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

/** Payload of both `contact.subscribed` and `contact.unsubscribed`. */
export class ContactSubscriptionChangedV1 {
  @IsString() contactId!: string;
  @IsEmailAddress() email!: string;
  /** What caused the change: api, send, import, bulk, unsubscribe-link, bounce, complaint, workflow. */
  @IsOptional() @IsString() reason?: string;
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
