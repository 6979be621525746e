import { ProjectId } from '@herald/auth';
import { ObservesWritesOf } from '@herald/core';
import type { CursorPage } from '@herald/http';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ListInboundQueryDto } from './inbound.dto.js';
import type { InboundMessageView, InboundSummaryView } from './inbound-view.js';
import { InboundService } from './inbound.service.js';

/** Mail received for the project by Herald's SMTP listener (docs/inbound.md). */
// the messages are this service's own; a project reset (the gateway's) must have been applied
@ObservesWritesOf('gateway')
@Controller('inbound')
export class InboundController {
  constructor(private readonly inbound: InboundService) {}

  /** The project's received messages, newest first (cursor-paginated), of one contact when `contactId` is given. */
  @Get()
  list(@ProjectId() projectId: string, @Query() query: ListInboundQueryDto): Promise<CursorPage<InboundSummaryView>> {
    return this.inbound.list(projectId, query);
  }

  /** One received message with its text, HTML (as received: sanitise it before showing it), headers and attachments. */
  @Get(':id')
  get(@ProjectId() projectId: string, @Param('id') id: string): Promise<InboundMessageView> {
    return this.inbound.get(projectId, id);
  }
}
