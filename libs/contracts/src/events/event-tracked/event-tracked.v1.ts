import { IsObject, IsString, MaxLength, MinLength } from 'class-validator';
import { IsEmailAddress } from '../../email-address.js';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

export class EventTrackedV1 {
  /** Id of the stored event record (`evt_…`). */
  @IsString() eventRecordId!: string;
  @IsString() contactId!: string;
  @IsEmailAddress() email!: string;
  @IsString() @MinLength(1) @MaxLength(255) name!: string;
  /** The event's data as sent, including non-persistent values (`{value, persistent: false}` resolved). */
  @IsObject() data!: Record<string, unknown>;
}

export const EventTracked = defineEvent({
  topic: Topics.EventTracked,
  version: 1,
  payload: EventTrackedV1,
  key: (p) => p.contactId,
});
