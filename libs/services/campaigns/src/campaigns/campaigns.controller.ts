import { ProjectId } from '@herald/auth';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CampaignBodyDto, ListCampaignsQueryDto } from './campaign.dto.js';
import type { CampaignView } from './campaign-view.js';
import { CampaignsService, type CampaignList } from './campaigns.service.js';

const rid = (req: FastifyRequest): string => String(req.id);

/** Campaigns: create, list, read, replace, delete, duplicate; sending and the ledger's reads have their own controllers under the same path. */
@Controller('campaigns')
export class CampaignsController {
  constructor(private readonly campaigns: CampaignsService) {}

  /** The spec's envelope for this one route: `{success: true, data}`. */
  @Post()
  async create(
    @ProjectId() projectId: string,
    @Body() body: CampaignBodyDto,
    @Req() req: FastifyRequest,
  ): Promise<{ success: true; data: CampaignView }> {
    return { success: true, data: await this.campaigns.create(projectId, body, rid(req)) };
  }

  @Get()
  list(@ProjectId() projectId: string, @Query() query: ListCampaignsQueryDto): Promise<CampaignList> {
    return this.campaigns.list(projectId, query);
  }

  @Get(':id')
  get(@ProjectId() projectId: string, @Param('id') id: string): Promise<CampaignView> {
    return this.campaigns.get(projectId, id);
  }

  @Put(':id')
  replace(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: CampaignBodyDto,
    @Req() req: FastifyRequest,
  ): Promise<CampaignView> {
    return this.campaigns.replace(projectId, id, body, rid(req));
  }

  @Delete(':id')
  async remove(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Req() req: FastifyRequest,
  ): Promise<{ success: true }> {
    await this.campaigns.remove(projectId, id, rid(req));
    return { success: true };
  }

  @Post(':id/duplicate')
  duplicate(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Req() req: FastifyRequest,
  ): Promise<CampaignView> {
    return this.campaigns.duplicate(projectId, id, rid(req));
  }
}
