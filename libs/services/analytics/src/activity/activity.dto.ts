import { CursorQueryDto } from '@herald/http';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ACTIVITY_TYPES } from '../projection/activity-item.js';
import { ChartQueryDto } from '../time/chart-query.dto.js';

const ISO = { strict: true };
const ISO_MESSAGE = { message: '$property must be an ISO 8601 timestamp' };
/** `a,b` or repeated `?type=a&type=b` → ['a', 'b']. */
const list = ({ value }: { value: unknown }) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);

export class ActivityQueryDto extends CursorQueryDto {
  @IsOptional()
  @Transform(list)
  @ArrayMaxSize(ACTIVITY_TYPES.length)
  @IsIn(ACTIVITY_TYPES, { each: true, message: `type must be one of ${ACTIVITY_TYPES.join(', ')}` })
  type?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(64)
  contactId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  campaignId?: string;

  @IsOptional()
  @IsISO8601(ISO, ISO_MESSAGE)
  from?: string;

  @IsOptional()
  @IsISO8601(ISO, ISO_MESSAGE)
  to?: string;
}

export class StatsQueryDto extends ChartQueryDto {
  @IsOptional()
  @Transform(list)
  @ArrayMaxSize(ACTIVITY_TYPES.length)
  @IsIn(ACTIVITY_TYPES, { each: true, message: `type must be one of ${ACTIVITY_TYPES.join(', ')}` })
  type?: string[];
}

export class RecentCountQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1440)
  minutes: number = 60;
}

export class UpcomingQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 20;
}
