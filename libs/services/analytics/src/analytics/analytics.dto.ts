import { Transform, Type } from 'class-transformer';
import { ArrayMinSize, IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { PageQueryDto } from '@herald/http';
import { METRICS, type Metric } from '../projection/activity-item.js';
import { ChartQueryDto } from '../time/chart-query.dto.js';
import { TOP_CAMPAIGN_METRICS, type TopCampaignMetric } from './campaign-analytics.js';

export class TimeseriesQueryDto extends ChartQueryDto {
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).map((v) => v.trim()),
  )
  @ArrayMinSize(1)
  @IsIn(METRICS, { each: true, message: `metrics must be among ${METRICS.join(', ')}` })
  metrics: Metric[] = [...METRICS];
}

export class TopCampaignsQueryDto {
  @IsOptional()
  @IsIn(TOP_CAMPAIGN_METRICS, { message: `metric must be one of ${TOP_CAMPAIGN_METRICS.join(', ')}` })
  metric: TopCampaignMetric = 'opens';

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 10;
}

/** With `campaignId`: that campaign; without: a page of every campaign (`page`, `pageSize` 1..100, default 20). */
export class CampaignStatsQueryDto extends PageQueryDto {
  /** One rule, so a bad id is one field error. */
  @IsOptional()
  @Matches(/^[^\s]{1,64}$/, { message: 'campaignId must be a campaign id of at most 64 characters' })
  campaignId?: string;
}
