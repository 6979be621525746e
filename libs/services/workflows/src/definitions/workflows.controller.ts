import { ProjectId } from '@herald/auth';
import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  CreateStepDto,
  CreateTransitionDto,
  CreateWorkflowDto,
  DeleteStepQueryDto,
  UpdateStepDto,
  UpdateWorkflowDto,
} from './workflow.dto.js';
import { StepsService } from './steps.service.js';
import { WorkflowsService } from './workflows.service.js';

const rid = (req: FastifyRequest) => String(req.id);

/** Workflows, their steps and transitions (docs/workflows.md); executions and the dry run have their own controllers under the same path. */
@Controller('workflows')
export class WorkflowsController {
  constructor(
    private readonly workflows: WorkflowsService,
    private readonly steps: StepsService,
  ) {}

  @Get()
  list(@ProjectId() projectId: string) {
    return this.workflows.list(projectId);
  }

  @Post()
  create(@ProjectId() projectId: string, @Body() body: CreateWorkflowDto, @Req() req: FastifyRequest) {
    return this.workflows.create(projectId, body, rid(req));
  }

  @Get(':id')
  get(@ProjectId() projectId: string, @Param('id') id: string) {
    return this.workflows.get(projectId, id);
  }

  @Patch(':id')
  update(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: UpdateWorkflowDto,
    @Req() req: FastifyRequest,
  ) {
    return this.workflows.update(projectId, id, body, rid(req));
  }

  @Delete(':id')
  async remove(@ProjectId() projectId: string, @Param('id') id: string, @Req() req: FastifyRequest) {
    await this.workflows.remove(projectId, id, rid(req));
    return { success: true };
  }

  @Post(':id/steps')
  addStep(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: CreateStepDto,
    @Req() req: FastifyRequest,
  ) {
    return this.steps.addStep(projectId, id, body, rid(req));
  }

  @Patch(':id/steps/:stepId')
  updateStep(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Param('stepId') stepId: string,
    @Body() body: UpdateStepDto,
    @Req() req: FastifyRequest,
  ) {
    return this.steps.updateStep(projectId, id, stepId, body, rid(req));
  }

  @Delete(':id/steps/:stepId')
  async removeStep(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Param('stepId') stepId: string,
    @Query() q: DeleteStepQueryDto,
    @Req() req: FastifyRequest,
  ) {
    await this.steps.removeStep(projectId, id, stepId, q.splice === true, rid(req));
    return { success: true };
  }

  @Post(':id/transitions')
  addTransition(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: CreateTransitionDto,
    @Req() req: FastifyRequest,
  ) {
    return this.steps.addTransition(projectId, id, body, rid(req));
  }

  @Delete(':id/transitions/:transitionId')
  async removeTransition(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Param('transitionId') transitionId: string,
    @Req() req: FastifyRequest,
  ) {
    await this.steps.removeTransition(projectId, id, transitionId, rid(req));
    return { success: true };
  }
}
