import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Min } from 'class-validator';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

export const CAMPAIGN_AUDIENCE_TYPES = ['ALL', 'SEGMENT', 'FILTERED'] as const;
export type CampaignAudienceType = (typeof CAMPAIGN_AUDIENCE_TYPES)[number];

/**
 * Payload of every `campaign.*` topic: one step of a campaign's life (docs/campaigns.md).
 * - `campaign.scheduled`: `POST /campaigns/:id/send {scheduledFor}`; `scheduledAt` is when it goes out
 *   and `estimatedRecipients` the audience's size when it was scheduled;
 * - `campaign.sending`: the audience is resolved and sending has begun; `recipients` is the
 *   ledger's size (every intended recipient, skipped ones included);
 * - `campaign.sent`: every ledger row is final; the counts add up (recipients = sent + skipped + failed);
 * - `campaign.cancelled`: a SCHEDULED or SENDING campaign was cancelled; what was sent stays sent.
 */
export class CampaignLifecycleV1 {
  @IsString() campaignId!: string;
  @IsString() name!: string;
  @IsString() subject!: string;
  @IsIn(CAMPAIGN_AUDIENCE_TYPES) audienceType!: CampaignAudienceType;
  @IsOptional() @IsString() segmentId?: string;
  /** When the change happened (ISO 8601). */
  @IsISO8601() at!: string;
  /** campaign.scheduled: when the campaign goes out. */
  @IsOptional() @IsISO8601() scheduledAt?: string;
  /** campaign.scheduled: the audience's size when scheduled (it is resolved again at send time). */
  @IsOptional() @IsInt() @Min(0) estimatedRecipients?: number;
  /** campaign.sending / sent / cancelled: the ledger's rows. */
  @IsOptional() @IsInt() @Min(0) recipients?: number;
  @IsOptional() @IsInt() @Min(0) sent?: number;
  @IsOptional() @IsInt() @Min(0) skipped?: number;
  @IsOptional() @IsInt() @Min(0) failed?: number;
}

const campaignEvent = (topic: string) =>
  defineEvent({ topic, version: 1, payload: CampaignLifecycleV1, key: (p) => p.campaignId });

export const CampaignScheduled = campaignEvent(Topics.CampaignScheduled);
export const CampaignSending = campaignEvent(Topics.CampaignSending);
export const CampaignSent = campaignEvent(Topics.CampaignSent);
export const CampaignCancelled = campaignEvent(Topics.CampaignCancelled);
