import { IsArray, IsInt, IsOptional, IsString, Min } from 'class-validator';
import { IsEmailAddress } from '../../email-address.js';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

/**
 * Payload of `email.received`: a message Herald's SMTP listener took for the project (docs/inbound.md).
 * The content (text, HTML, headers, attachments) is not carried: `GET /inbound/:id` answers it.
 */
export class EmailReceivedV1 {
  /** Herald's id of the stored message (`inb_…`). */
  @IsString() inboundId!: string;
  /** The contact whose address sent it; absent when the sender is no contact of the project. */
  @IsOptional() @IsString() contactId?: string;
  /** The sender's address, normalised (the From header's, else the envelope sender's); absent for a null sender. */
  @IsOptional() @IsEmailAddress() email?: string;
  /** The sender's display name. */
  @IsOptional() @IsString() name?: string;
  /** The project's addresses it was delivered to (envelope recipients). */
  @IsArray() @IsString({ each: true }) to!: string[];
  @IsOptional() @IsString() subject?: string;
  /** The Message-ID header, without the angle brackets. */
  @IsOptional() @IsString() messageId?: string;
  /** Herald's email it answers (`eml_…`), found by In-Reply-To / References. */
  @IsOptional() @IsString() inReplyToEmailId?: string;
  /** The campaign or workflow of the email it answers. */
  @IsOptional() @IsString() campaignId?: string;
  @IsOptional() @IsString() workflowId?: string;
  /** How many attachments it has (stored or not). */
  @IsInt() @Min(0) attachments!: number;
  /** Its size in bytes, as received. */
  @IsInt() @Min(0) size!: number;
}

export const EmailReceived = defineEvent({
  topic: Topics.EmailReceived,
  version: 1,
  payload: EmailReceivedV1,
  key: (p, projectId) => p.contactId ?? p.email ?? projectId,
});
