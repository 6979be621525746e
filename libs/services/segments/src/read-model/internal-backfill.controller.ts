import { ProjectId } from '@herald/auth';
import { notFoundError, ObservesWritesOf } from '@herald/core';
import { Internal } from '@herald/http';
import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ReadModelBackfill, type BackfillStatus } from './read-model.backfill.js';

/**
 * The read model's backfill from contacts (docs/segments.md, "Backfill"), for an operator or a
 * migration script: reached only with a service principal naming the project, never through the
 * gateway. `POST` queues the job (202 with its id); `GET` answers its state.
 */
@Internal()
// reads and writes only this service's own tables
@ObservesWritesOf()
@Controller('internal/segments/backfill')
export class InternalBackfillController {
  constructor(private readonly backfill: ReadModelBackfill) {}

  @Post()
  @HttpCode(202)
  async start(@ProjectId() projectId: string): Promise<{ jobId: string }> {
    return { jobId: await this.backfill.start(projectId) };
  }

  @Get(':jobId')
  async status(@ProjectId() projectId: string, @Param('jobId') jobId: string): Promise<BackfillStatus> {
    const status = await this.backfill.status(projectId, jobId);
    if (!status) throw notFoundError('backfill job', jobId);
    return status;
  }
}
