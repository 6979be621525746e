import { ProjectId } from '@herald/auth';
import { PageQueryDto, type Page } from '@herald/http';
import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { FieldsService, type FieldDescriptor } from './fields.service.js';
import type { Usage } from '@herald/messaging';

@Controller('contacts/fields')
export class FieldsController {
  constructor(private readonly fields: FieldsService) {}

  @Get()
  list(@ProjectId() projectId: string): Promise<{ fields: FieldDescriptor[] }> {
    return this.fields.list(projectId);
  }

  @Get(':field/values')
  values(
    @ProjectId() projectId: string,
    @Param('field') field: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<{ value: string; count: number }>> {
    return this.fields.values(projectId, field, query);
  }

  @Get(':field/usage')
  usage(@ProjectId() projectId: string, @Param('field') field: string): Promise<Usage> {
    return this.fields.usage(projectId, field);
  }

  @Delete(':field')
  @HttpCode(202)
  delete(@ProjectId() projectId: string, @Param('field') field: string): Promise<{ jobId: string; status: 'queued' }> {
    return this.fields.delete(projectId, field);
  }
}
