import { ProjectId } from '@herald/auth';
import type { CursorPage } from '@herald/http';
import { Controller, Get, Query } from '@nestjs/common';
import { Charts } from '../analytics/charts.js';
import { CampaignAnalytics } from '../analytics/campaign-analytics.js';
import { ACTIVITY_TYPES } from '../projection/activity-item.js';
import { ActivityQueryDto, RecentCountQueryDto, StatsQueryDto, UpcomingQueryDto } from './activity.dto.js';
import { ActivityFeed, type ActivityView } from './activity-feed.js';
import { chartRange, checkTimeZone, feedRange } from '../time/query-range.js';

/** `/activity/*`: the project's feed and its counts (docs/analytics.md). */
@Controller('activity')
export class ActivityController {
  constructor(
    private readonly feed: ActivityFeed,
    private readonly charts: Charts,
    private readonly campaigns: CampaignAnalytics,
  ) {}

  @Get()
  list(@ProjectId() projectId: string, @Query() q: ActivityQueryDto): Promise<CursorPage<ActivityView>> {
    return this.feed.page(projectId, {
      limit: q.limit,
      ...(q.cursor ? { cursor: q.cursor } : {}),
      ...(q.type ? { types: q.type } : {}),
      ...(q.contactId ? { contactId: q.contactId } : {}),
      ...(q.campaignId ? { campaignId: q.campaignId } : {}),
      range: feedRange(q.from, q.to),
    });
  }

  @Get('stats')
  stats(@ProjectId() projectId: string, @Query() q: StatsQueryDto) {
    return this.charts.stats(projectId, {
      range: chartRange(q.from, q.to, q.interval),
      interval: q.interval,
      tz: checkTimeZone(q.tz),
      types: q.type ?? [...ACTIVITY_TYPES],
    });
  }

  @Get('recent-count')
  recentCount(@ProjectId() projectId: string, @Query() q: RecentCountQueryDto) {
    return this.charts.recentCount(projectId, q.minutes);
  }

  @Get('types')
  types(@ProjectId() projectId: string) {
    return this.charts.types(projectId);
  }

  @Get('upcoming')
  upcoming(@ProjectId() projectId: string, @Query() q: UpcomingQueryDto) {
    return this.campaigns.upcoming(projectId, q.limit);
  }
}
