import { ServiceConfig, toInt } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

const HTTP_URL = /^https?:\/\/[^\s]+$/;

/** The campaigns service's settings, in both modes (docs/campaigns.md, "Configuration"). */
export class CampaignsSettings {
  /** The domains service (distributed mode): is `from` on a verified domain. Standalone calls itself. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'DOMAINS_URL must be an http(s) URL' })
  DOMAINS_URL?: string;

  /** The segments service (distributed mode): audience checks and the audience at send time. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'SEGMENTS_URL must be an http(s) URL' })
  SEGMENTS_URL?: string;

  /** The sending service (distributed mode): its internal email intake delivers the campaign. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'SENDING_URL must be an http(s) URL' })
  SENDING_URL?: string;

  /** Recipients read from segments, and handed to sending, per call. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(500)
  CAMPAIGN_BATCH_SIZE: number = 500;

  /**
   * At most this many recipients of one campaign are handed to sending and not yet sent: what a
   * cancel cannot stop any more (a few seconds of delivery), and sending's queue is never flooded.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  CAMPAIGN_IN_FLIGHT: number = 2_000;
}

/** What the campaigns process needs in distributed mode, validated at boot. */
export class CampaignsServiceConfig extends ServiceConfig {
  @Matches(HTTP_URL, { message: 'DOMAINS_URL must be an http(s) URL' }) DOMAINS_URL!: string;
  @Matches(HTTP_URL, { message: 'SEGMENTS_URL must be an http(s) URL' }) SEGMENTS_URL!: string;
  @Matches(HTTP_URL, { message: 'SENDING_URL must be an http(s) URL' }) SENDING_URL!: string;
}

export const CAMPAIGNS_SETTINGS = Symbol('CAMPAIGNS_SETTINGS');
