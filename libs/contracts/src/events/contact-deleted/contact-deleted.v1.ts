import { IsString } from 'class-validator';
import { IsEmailAddress } from '../../email-address.js';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

export class ContactDeletedV1 {
  @IsString() contactId!: string;
  @IsEmailAddress() email!: string;
}

export const ContactDeleted = defineEvent({
  topic: Topics.ContactDeleted,
  version: 1,
  payload: ContactDeletedV1,
  key: (p) => p.contactId,
});
