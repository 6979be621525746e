import { InjectOutbox, type Outbox } from '@herald/messaging';
import { CONTACTS } from '../consumer.js';
import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { BulkContactsDto, BulkService, type BulkJobView } from './bulk.service.js';

// the jobs are this service's own; a project reset (the gateway's) must have been applied
@ObservesWritesOf('gateway')
@Controller('contacts')
export class BulkController {
  constructor(
    private readonly bulk: BulkService,
    @InjectOutbox(CONTACTS) private readonly outbox: Outbox,
  ) {}

  @Post('bulk-subscribe')
  @HttpCode(202)
  subscribe(@ProjectId() projectId: string, @Body() body: BulkContactsDto) {
    return this.bulk.start(projectId, 'subscribe', body.contactIds);
  }

  @Post('bulk-unsubscribe')
  @HttpCode(202)
  unsubscribe(@ProjectId() projectId: string, @Body() body: BulkContactsDto) {
    return this.bulk.start(projectId, 'unsubscribe', body.contactIds);
  }

  @Post('bulk-delete')
  @HttpCode(202)
  delete(@ProjectId() projectId: string, @Body() body: BulkContactsDto) {
    return this.bulk.start(projectId, 'delete', body.contactIds);
  }

  @Get('bulk/:jobId')
  /** A finished job's status shows its writes: the project's later requests observe them (read-your-writes). */
  async get(@ProjectId() projectId: string, @Param('jobId') jobId: string): Promise<BulkJobView> {
    const job = await this.bulk.get(projectId, jobId);
    if (job.status !== 'queued') await this.outbox.exposeLatest(projectId);
    return job;
  }
}
