import { IsBoolean, IsIn, IsOptional, IsString } from 'class-validator';
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
  /**
   * `true` for an email of test mode (docs/test-mode.md): sent with a test key (`sk_test_…`) or to a
   * sandbox address; it never reached a relay, its outcome was simulated. Absent for live mail.
   * Consumers that keep live state (billing, reputation, analytics totals, contacts, segments,
   * workflows) skip such events (`liveEmailEvents`).
   */
  @IsOptional() @IsBoolean() testMode?: boolean;
}

/** Whether an `email.*` event is of test mode (its `testMode` payload flag). */
export const isTestModeEvent = (e: { payload: Pick<EmailLifecycleV1, 'testMode'> }): boolean =>
  e.payload.testMode === true;

/** The events of live mail among `events` (those of test mode left out: they change no live state). */
export const liveEmailEvents = <E extends { payload: Pick<EmailLifecycleV1, 'testMode'> }>(events: E[]): E[] =>
  events.filter((e) => !isTestModeEvent(e));

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
