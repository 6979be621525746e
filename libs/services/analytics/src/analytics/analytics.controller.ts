import { ProjectId } from '@herald/auth';
import { Controller, Get, Query } from '@nestjs/common';
import { chartRange, checkTimeZone } from '../time/query-range.js';
import { CampaignStatsQueryDto, TimeseriesQueryDto, TopCampaignsQueryDto } from './analytics.dto.js';
import { CampaignAnalytics } from './campaign-analytics.js';
import { Charts } from './charts.js';

/** `/analytics/*` besides `top-events` (docs/analytics.md). */
@Controller('analytics')
export class AnalyticsController {
  constructor(
    private readonly charts: Charts,
    private readonly campaigns: CampaignAnalytics,
  ) {}

  @Get('timeseries')
  timeseries(@ProjectId() projectId: string, @Query() q: TimeseriesQueryDto) {
    return this.charts.timeseries(projectId, {
      range: chartRange(q.from, q.to, q.interval),
      interval: q.interval,
      tz: checkTimeZone(q.tz),
      metrics: [...new Set(q.metrics)],
    });
  }

  @Get('top-campaigns')
  topCampaigns(@ProjectId() projectId: string, @Query() q: TopCampaignsQueryDto) {
    return this.campaigns.top(projectId, q.metric, q.limit);
  }

  /** One campaign with `campaignId`; without it, every campaign of the project, a page at a time. */
  @Get('campaign-stats')
  campaignStats(@ProjectId() projectId: string, @Query() q: CampaignStatsQueryDto) {
    return q.campaignId === undefined
      ? this.campaigns.list(projectId, q.page, q.pageSize)
      : this.campaigns.stats(projectId, q.campaignId);
  }
}
