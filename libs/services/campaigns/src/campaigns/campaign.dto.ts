import { IsEmailAddress } from '@herald/contracts';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { AUDIENCE_TYPES, CAMPAIGN_STATUSES, type AudienceType, type CampaignStatus } from './campaign.entity.js';

const NO_NEWLINE = /^[^\r\n]*$/;
/** The largest body accepted (HTML source, before rendering). */
export const MAX_BODY_LENGTH = 512 * 1024;

/** `POST /campaigns` and `PUT /campaigns/:id` (the whole campaign): the spec's Campaign fields. */
export class CampaignBodyDto {
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  name!: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(500, { message: 'description must be at most 500 characters' })
  description?: string | null;

  /** The `/v1/send` subject rules: 1 to 998 characters, no newline. */
  @IsString()
  @MinLength(1, { message: 'subject must not be empty' })
  @MaxLength(998, { message: 'subject must be at most 998 characters' })
  @Matches(NO_NEWLINE, { message: 'subject must not contain newline characters' })
  subject!: string;

  @IsString()
  @MinLength(1, { message: 'body must not be empty' })
  @MaxLength(MAX_BODY_LENGTH, { message: `body must be at most ${MAX_BODY_LENGTH} characters` })
  body!: string;

  @IsEmailAddress({ message: 'from must be a valid email address' })
  from!: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(200, { message: 'fromName must be at most 200 characters' })
  @Matches(NO_NEWLINE, { message: 'fromName must not contain newline characters' })
  fromName?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsEmailAddress({ message: 'replyTo must be a valid email address' })
  replyTo?: string | null;

  @IsIn(AUDIENCE_TYPES, { message: 'audienceType must be ALL, SEGMENT or FILTERED' })
  audienceType!: AudienceType;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(40)
  segmentId?: string | null;

  /** Checked by the filter language (docs/filters.md), against the project's fields and segments. */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsObject({ message: 'audienceFilter must be a filter object' })
  audienceFilter?: Record<string, unknown> | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(60)
  templateId?: string | null;
}

export class SendCampaignDto {
  /** An ISO 8601 instant in the future; absent: send now. Checked by parseScheduledFor (422 on scheduledFor). */
  @IsOptional()
  scheduledFor?: unknown;
}

export class TestSendDto {
  @IsEmailAddress({ message: 'email must be a valid email address' })
  email!: string;
}

export class ListCampaignsQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be between 1 and 100' })
  @Max(100, { message: 'limit must be between 1 and 100' })
  limit: number = 20;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be an integer' })
  @Min(1, { message: 'page must be at least 1' })
  page?: number;

  /** The `cursor` of the previous page (the next page's number). */
  @IsOptional()
  @IsString()
  @Matches(/^[1-9]\d{0,8}$/, { message: 'cursor must be a value returned by a previous page' })
  cursor?: string;

  @IsOptional()
  @IsIn(CAMPAIGN_STATUSES, { message: `status must be one of ${CAMPAIGN_STATUSES.join(', ')}` })
  status?: CampaignStatus;
}
