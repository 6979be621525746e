import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import type { CursorPage } from '@herald/http';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CreateTemplateDto, ListTemplatesQueryDto, UpdateTemplateDto } from './template.dto.js';
import { TemplatesService, type TemplateUsage, type TemplateView } from './templates.service.js';

// usage reads the references campaigns and workflows publish; a template's sender is decided by
// SenderDomains (its copy of domains, or the owner while the copy may lag)
@ObservesWritesOf('segments', 'campaigns', 'workflows', 'gateway')
@Controller('templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  list(@ProjectId() projectId: string, @Query() query: ListTemplatesQueryDto): Promise<CursorPage<TemplateView>> {
    return this.templates.list(projectId, query);
  }

  @Post()
  create(@ProjectId() projectId: string, @Body() body: CreateTemplateDto): Promise<TemplateView> {
    return this.templates.create(projectId, body);
  }

  @Get(':id')
  get(@ProjectId() projectId: string, @Param('id') id: string): Promise<TemplateView> {
    return this.templates.get(projectId, id);
  }

  @Patch(':id')
  update(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: UpdateTemplateDto,
  ): Promise<TemplateView> {
    return this.templates.update(projectId, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  delete(@ProjectId() projectId: string, @Param('id') id: string): Promise<void> {
    return this.templates.delete(projectId, id);
  }

  @Post(':id/duplicate')
  duplicate(@ProjectId() projectId: string, @Param('id') id: string): Promise<{ id: string }> {
    return this.templates.duplicate(projectId, id);
  }

  @Get(':id/usage')
  usage(@ProjectId() projectId: string, @Param('id') id: string): Promise<TemplateUsage> {
    return this.templates.usage(projectId, id);
  }
}
