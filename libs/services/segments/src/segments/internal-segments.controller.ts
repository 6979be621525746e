import { ProjectId } from '@herald/auth';
import { ObservesWritesOf } from '@herald/core';
import { FILTER_LIMITS } from '@herald/filters';
import { Internal } from '@herald/http';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';
import { SegmentsService } from './segments.service.js';

export class KnownSegmentsDto {
  /** The `segment.<id>` references of one filter (at most its number of conditions, each a field's length). */
  @IsArray()
  @ArrayMaxSize(FILTER_LIMITS.maxNodes)
  @IsString({ each: true })
  @MaxLength(FILTER_LIMITS.maxFieldLength, { each: true })
  ids!: string[];
}

/**
 * What other services ask of segments about the project's segments (internal HTTP, a service
 * principal naming the project, never through the gateway): workflows, whether the segments a
 * CONDITION step names are the project's when the step is saved.
 */
@Internal()
// reads only this service's own tables
@ObservesWritesOf()
@Controller('internal/segments')
export class InternalSegmentsController {
  constructor(private readonly segments: SegmentsService) {}

  /** `{ids}` → `{ids}`: those that are segments of the caller's project (another project's are not). */
  @Post('known')
  @HttpCode(200)
  async known(@ProjectId() projectId: string, @Body() body: KnownSegmentsDto): Promise<{ ids: string[] }> {
    return { ids: await this.segments.known(projectId, body.ids) };
  }
}
