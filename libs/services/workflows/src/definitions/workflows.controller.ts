import { ProjectId } from '@herald/auth';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ExecutionsService } from '../executions/executions.service.js';
import { SimulateService } from '../simulate/simulate.service.js';
import {
  CreateStepDto,
  CreateTransitionDto,
  CreateWorkflowDto,
  DeleteStepQueryDto,
  ListExecutionsQueryDto,
  SimulateDto,
  StartExecutionDto,
  UpdateStepDto,
  UpdateWorkflowDto,
} from './workflow.dto.js';
import { StepsService } from './steps.service.js';
import { WorkflowsService } from './workflows.service.js';

const rid = (req: FastifyRequest) => String(req.id);

@Controller('workflows')
export class WorkflowsController {
  constructor(
    private readonly workflows: WorkflowsService,
    private readonly steps: StepsService,
    private readonly executions: ExecutionsService,
    private readonly sim: SimulateService,
  ) {}

  @Get()
  list(@ProjectId() projectId: string) {
    return this.workflows.list(projectId);
  }

  @Get('fields')
  fields(@ProjectId() projectId: string) {
    return this.sim.fields(projectId);
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

  @Post(':id/simulate')
  @HttpCode(200)
  simulate(@ProjectId() projectId: string, @Param('id') id: string, @Body() body: SimulateDto) {
    return this.sim.simulate(projectId, id, body);
  }

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
