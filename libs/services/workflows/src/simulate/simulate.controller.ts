import { ProjectId } from '@herald/auth';
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { SimulateDto } from '../definitions/workflow.dto.js';
import { SimulateService } from './simulate.service.js';

/** The dry run and the fields a CONDITION can use (docs/workflows.md). */
@Controller('workflows')
export class SimulateController {
  constructor(private readonly sim: SimulateService) {}

  @Get('fields')
  fields(@ProjectId() projectId: string) {
    return this.sim.fields(projectId);
  }

  @Post(':id/simulate')
  @HttpCode(200)
  simulate(@ProjectId() projectId: string, @Param('id') id: string, @Body() body: SimulateDto) {
    return this.sim.simulate(projectId, id, body);
  }
}
