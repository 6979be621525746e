import { toInt } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The analytics service's settings, in both modes (docs/analytics.md). */
export class AnalyticsSettings {
  /** Feed items older than this many days are pruned by the retention job; the aggregates stay. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  ACTIVITY_RETENTION_DAYS: number = 90;

  /** How often the retention job runs. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  ACTIVITY_RETENTION_INTERVAL_MS: number = 3_600_000;

  /** The prefetch rule: an open this soon after delivery (or sending) is flagged as a client's automatic fetch. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  ACTIVITY_PREFETCH_WINDOW_MS: number = 10_000;
}

export const ANALYTICS_SETTINGS = Symbol('ANALYTICS_SETTINGS');
