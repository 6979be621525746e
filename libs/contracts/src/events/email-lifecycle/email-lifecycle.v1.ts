import { IsIn, IsOptional, IsString } from 'class-validator';
import { IsEmailAddress } from '../../email-address.js';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

/**
 * Payload of every `email.*` topic: what happened to one outgoing email (or, for bounces and
 * complaints reported by the relay for mail Herald cannot match, to one address).
 */
export class EmailLifecycleV1 {
  /** Herald's email id (`eml_…`); absent only when a relay notification matched no email. */
  @IsOptional() @IsString() emailId?: string;
  @IsOptional() @IsString() contactId?: string;
  /** Recipient address. */
  @IsEmailAddress() email!: string;
  @IsOptional() @IsString() subject?: string;
  @IsOptional() @IsString() templateId?: string;
  /** Where the email came from: the API (/v1/send), a campaign or a workflow. */
  @IsOptional() @IsIn(['api', 'campaign', 'workflow']) origin?: 'api' | 'campaign' | 'workflow';
  @IsOptional() @IsString() campaignId?: string;
  @IsOptional() @IsString() workflowId?: string;
  /** The sender address's domain (`example.com` of `news@example.com`): sender reputation per domain. */
  @IsOptional() @IsString() fromDomain?: string;
  /** email.bounced: permanent (hard) or transient (soft). */
  @IsOptional() @IsIn(['permanent', 'transient']) bounceType?: 'permanent' | 'transient';
  /** email.bounced / email.failed / email.complained: the relay's words. */
  @IsOptional() @IsString() reason?: string;
  /** email.clicked: the link's target. */
  @IsOptional() @IsString() url?: string;
  /** email.sent: the Message-ID header handed to the relay. */
  @IsOptional() @IsString() messageId?: string;
}

const emailEvent = (topic: string) =>
  defineEvent({
    topic,
    version: 1,
    payload: EmailLifecycleV1,
    key: (p, projectId) => p.contactId ?? p.email ?? projectId,
  });

export const EmailSent = emailEvent(Topics.EmailSent);
export const EmailDelivered = emailEvent(Topics.EmailDelivered);
export const EmailBounced = emailEvent(Topics.EmailBounced);
export const EmailComplained = emailEvent(Topics.EmailComplained);
export const EmailOpened = emailEvent(Topics.EmailOpened);
export const EmailClicked = emailEvent(Topics.EmailClicked);
export const EmailFailed = emailEvent(Topics.EmailFailed);
