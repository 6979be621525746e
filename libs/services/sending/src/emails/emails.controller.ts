import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import type { CursorPage } from '@herald/http';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ListEmailsQueryDto } from './email.dto.js';
import type { EmailSummaryView, EmailView } from './email-view.js';
import { EmailsService } from './emails.service.js';

/** What happened to my email: the project's emails with their status and lifecycle events. */
// the emails are this service's own; a project reset (the gateway's) must have been applied
@ObservesWritesOf('gateway')
@Controller('emails')
export class EmailsController {
  constructor(private readonly emails: EmailsService) {}

  @Get()
  list(@ProjectId() projectId: string, @Query() query: ListEmailsQueryDto): Promise<CursorPage<EmailSummaryView>> {
    return this.emails.list(projectId, query);
  }

  @Get(':id')
  get(@ProjectId() projectId: string, @Param('id') id: string): Promise<EmailView> {
    return this.emails.get(projectId, id);
  }
}
