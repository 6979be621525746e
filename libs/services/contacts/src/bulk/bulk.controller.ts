import { ProjectId } from '@herald/auth';
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { BulkContactsDto, BulkService, type BulkJobView } from './bulk.service.js';

@Controller('contacts')
export class BulkController {
  constructor(private readonly bulk: BulkService) {}

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
  get(@ProjectId() projectId: string, @Param('jobId') jobId: string): Promise<BulkJobView> {
    return this.bulk.get(projectId, jobId);
  }
}
