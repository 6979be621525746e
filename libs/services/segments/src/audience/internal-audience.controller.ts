import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import { Internal } from '@herald/http';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { AudienceService, type AudiencePage, type AudienceType } from './audience.service.js';

const AUDIENCE_TYPES = ['ALL', 'SEGMENT', 'FILTERED'] as const;

export class AudienceQueryDto {
  @IsIn(AUDIENCE_TYPES)
  audienceType!: AudienceType;

  @IsOptional()
  @IsString()
  @MaxLength(40)
  segmentId?: string;

  @IsOptional()
  @IsObject()
  filter?: Record<string, unknown>;
}

export class AudiencePageDto extends AudienceQueryDto {
  /** The last contact id of the previous page. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  after?: string;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2000)
  limit: number = 500;
}

/**
 * What the campaigns service asks of segments (internal HTTP, a service principal, never through the
 * gateway): whether an audience is valid and how large it is now, and the audience itself, page by
 * page, at the moment of sending.
 */
@Internal()
// the audience is the project's contacts as written (engagement, reported by relays and recipients,
// is not a write of the project: docs/consistency.md, "What may lag")
@ObservesWritesOf('contacts', 'gateway')
@Controller('internal/segments/audience')
export class InternalAudienceController {
  constructor(private readonly audience: AudienceService) {}

  @Post('check')
  @HttpCode(200)
  check(@ProjectId() projectId: string, @Body() body: AudienceQueryDto): Promise<{ estimatedRecipients: number }> {
    return this.audience.check(projectId, body);
  }

  @Post()
  @HttpCode(200)
  page(@ProjectId() projectId: string, @Body() body: AudiencePageDto): Promise<AudiencePage> {
    return this.audience.page(projectId, body);
  }
}
