import { ProjectId } from '@herald/auth';
import { Body, Controller, Delete, Get, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CreateDomainDto } from './domain.dto.js';
import type { DomainView } from './domain-view.js';
import { DomainsService } from './domains.service.js';

@Controller('domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  /** 201 with the domain (pending) and the DNS records to publish. */
  @Post()
  create(@ProjectId() projectId: string, @Body() body: CreateDomainDto): Promise<DomainView> {
    return this.domains.create(projectId, body.domain);
  }

  @Get('project/:projectId')
  list(
    @ProjectId() callerProjectId: string,
    @Param('projectId') projectId: string,
  ): Promise<{ domains: DomainView[] }> {
    return this.domains.list(callerProjectId, projectId);
  }

  /** Forces a check now: the domain with each record's status (found, missing, wrong_value, lookup_failed). */
  @Get(':id/verify')
  verify(@ProjectId() projectId: string, @Param('id') id: string, @Req() req: FastifyRequest): Promise<DomainView> {
    return this.domains.verify(projectId, id, String(req.id));
  }

  @Get(':id')
  get(@ProjectId() projectId: string, @Param('id') id: string): Promise<DomainView> {
    return this.domains.get(projectId, id);
  }

  @Delete(':id')
  async remove(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Req() req: FastifyRequest,
  ): Promise<{ success: true }> {
    await this.domains.remove(projectId, id, String(req.id));
    return { success: true };
  }
}
