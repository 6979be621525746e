import { ProjectId } from '@herald/auth';
import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { SendCampaignDto, TestSendDto } from '../campaigns/campaign.dto.js';
import type { CampaignView } from '../campaigns/campaign-view.js';
import { CampaignRuns } from './campaign-runs.js';
import type { TestSendAnswer } from './tester-send.js';

const rid = (req: FastifyRequest): string => String(req.id);

/** Sending a campaign: send or schedule, cancel, and the test send (docs/campaigns.md). */
@Controller('campaigns')
export class DeliveryController {
  constructor(private readonly runs: CampaignRuns) {}

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
}
