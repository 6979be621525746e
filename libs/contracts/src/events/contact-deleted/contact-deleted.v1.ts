import { IsEmail, IsString } from 'class-validator';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

export class ContactDeletedV1 {
  @IsString() contactId!: string;
  @IsEmail() email!: string;
}

export const ContactDeleted = defineEvent({
  topic: Topics.ContactDeleted,
  version: 1,
  payload: ContactDeletedV1,
  key: (p) => p.contactId,
});
