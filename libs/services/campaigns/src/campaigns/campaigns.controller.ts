import { Readable } from 'node:stream';
import { ProjectId } from '@herald/auth';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CampaignRuns } from '../delivery/campaign-runs.js';
import type { TestSendAnswer } from '../delivery/tester-send.js';
import { RecipientsFilterDto, RecipientsQueryDto } from '../recipients/recipients.dto.js';
import { RecipientsService, type RecipientsPage } from '../recipients/recipients.service.js';
import { CampaignBodyDto, ListCampaignsQueryDto, SendCampaignDto, TestSendDto } from './campaign.dto.js';
import type { CampaignView } from './campaign-view.js';
import { CampaignsService, type CampaignList } from './campaigns.service.js';

const rid = (req: FastifyRequest): string => String(req.id);

@Controller('campaigns')
export class CampaignsController {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly runs: CampaignRuns,
    private readonly recipients: RecipientsService,
  ) {}

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

  @Post(':id/send')
  @HttpCode(200)
  send(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: SendCampaignDto,
    @Req() req: FastifyRequest,
  ): Promise<CampaignView> {
    return this.runs.send(projectId, id, body?.scheduledFor, rid(req));
  }

  @Post(':id/cancel')
  @HttpCode(200)
  cancel(@ProjectId() projectId: string, @Param('id') id: string, @Req() req: FastifyRequest): Promise<CampaignView> {
    return this.runs.cancel(projectId, id, rid(req));
  }

  @Post(':id/test')
  @HttpCode(200)
  test(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: TestSendDto,
    @Req() req: FastifyRequest,
  ): Promise<TestSendAnswer> {
    return this.runs.test(projectId, id, body.email, rid(req));
  }

  @Get(':id/stats')
  stats(@ProjectId() projectId: string, @Param('id') id: string) {
    return this.recipients.stats(projectId, id);
  }

  @Get(':id/recipients')
  recipientsPage(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Query() query: RecipientsQueryDto,
  ): Promise<RecipientsPage> {
    return this.recipients.page(projectId, id, query);
  }

  @Get(':id/recipients.csv')
  async recipientsCsv(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Query() query: RecipientsFilterDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const lines = this.recipients.csv(projectId, id, query);
    const first = await lines.next(); // a 404 is answered before the stream starts
    async function* all() {
      if (!first.done) yield first.value;
      yield* lines;
    }
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="campaign-${id.replace(/[^A-Za-z0-9_-]/g, '')}-recipients.csv"`,
      )
      .send(Readable.from(all()));
  }
}
