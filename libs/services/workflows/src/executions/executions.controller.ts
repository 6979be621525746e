import { ProjectId } from '@herald/auth';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ListExecutionsQueryDto, StartExecutionDto } from '../definitions/workflow.dto.js';
import { ExecutionsService } from './executions.service.js';

const rid = (req: FastifyRequest) => String(req.id);

/** A workflow's executions by hand: start, list, read, cancel, cancel all (docs/workflows.md). */
@Controller('workflows')
export class ExecutionsController {
  constructor(private readonly executions: ExecutionsService) {}

  @Post(':id/executions')
  start(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: StartExecutionDto,
    @Req() req: FastifyRequest,
  ) {
    return this.executions.start(projectId, id, body.contactId, body.context ?? {}, rid(req));
  }

  @Get(':id/executions')
  executionsList(@ProjectId() projectId: string, @Param('id') id: string, @Query() q: ListExecutionsQueryDto) {
    return this.executions.list(projectId, id, q);
  }

  @Post(':id/executions/cancel-all')
  @HttpCode(200)
  cancelAll(@ProjectId() projectId: string, @Param('id') id: string, @Req() req: FastifyRequest) {
    return this.executions.cancelAll(projectId, id, rid(req));
  }

  @Get(':id/executions/:executionId')
  execution(@ProjectId() projectId: string, @Param('id') id: string, @Param('executionId') executionId: string) {
    return this.executions.get(projectId, id, executionId);
  }

  @Delete(':id/executions/:executionId')
  cancel(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Param('executionId') executionId: string,
    @Req() req: FastifyRequest,
  ) {
    return this.executions.cancel(projectId, id, executionId, rid(req));
  }
}
