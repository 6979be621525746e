import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import { Internal } from '@herald/http';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { TemplatesService } from './templates.service.js';

export class InternalTemplateDto {
  @IsString()
  @MaxLength(60)
  id!: string;
}

/**
 * A template as other services need it at once (workflows: a SEND_EMAIL step's template must be
 * the project's, and its type decides the email's category). Service principals only.
 */
@Internal()
// reads and writes only this service's own tables
@ObservesWritesOf()
@Controller('internal/templates')
export class InternalTemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Post('get')
  @HttpCode(200)
  async get(@ProjectId() projectId: string, @Body() body: InternalTemplateDto) {
    const t = await this.templates.find(projectId, body.id);
    return { id: t.id, name: t.name, type: t.type, subject: t.subject };
  }
}
