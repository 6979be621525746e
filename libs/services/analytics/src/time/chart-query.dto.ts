import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';

const ISO = { strict: true };
const ISO_MESSAGE = { message: '$property must be an ISO 8601 timestamp' };

/** The query of every chart route (`/activity/stats`, `/analytics/timeseries`): range, interval, time zone. */
export class ChartQueryDto {
  @IsOptional()
  @IsISO8601(ISO, ISO_MESSAGE)
  from?: string;

  @IsOptional()
  @IsISO8601(ISO, ISO_MESSAGE)
  to?: string;

  @IsOptional()
  @IsIn(['hour', 'day'], { message: 'interval must be hour or day' })
  interval: 'hour' | 'day' = 'day';

  /** IANA time zone of the buckets (checked by the route: class-validator's list is not the runtime's). */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  tz: string = 'UTC';
}
