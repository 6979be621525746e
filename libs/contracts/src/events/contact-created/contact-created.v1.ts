import { IsBoolean, IsObject, IsString } from 'class-validator';
import { IsEmailAddress } from '../../email-address.js';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

export class ContactCreatedV1 {
  @IsString() contactId!: string;
  @IsEmailAddress() email!: string;
  @IsBoolean() subscribed!: boolean;
  @IsObject() data!: Record<string, unknown>;
}

export const ContactCreated = defineEvent({
  topic: Topics.ContactCreated,
  version: 1,
  payload: ContactCreatedV1,
  key: (p) => p.contactId,
});
