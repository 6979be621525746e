import { IsArray, IsBoolean, IsObject, IsString } from 'class-validator';
import { IsEmailAddress } from '../../email-address.js';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

export class ContactUpdatedV1 {
  @IsString() contactId!: string;
  @IsEmailAddress() email!: string;
  @IsBoolean() subscribed!: boolean;
  /** The contact's whole data object after the change. */
  @IsObject() data!: Record<string, unknown>;
  /** Keys that changed: `email`, `subscribed`, or `data.<key>`. */
  @IsArray() @IsString({ each: true }) changedKeys!: string[];
}

export const ContactUpdated = defineEvent({
  topic: Topics.ContactUpdated,
  version: 1,
  payload: ContactUpdatedV1,
  key: (p) => p.contactId,
});
