import { ProjectId } from '@herald/auth';
import { Controller, Get, Query } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, Max, Min } from 'class-validator';
import type { DataSource } from 'typeorm';
import { chartRange } from '../time/query-range.js';
import { ANALYTICS } from '../consumer.js';
import { EventCountsStore } from './event-counts.store.js';

const ISO_MESSAGE = { message: '$property must be an ISO 8601 timestamp' };

export class TopEventsQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 10;

  @IsOptional()
  @IsISO8601({ strict: true }, ISO_MESSAGE)
  from?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, ISO_MESSAGE)
  to?: string;
}

export interface TopEvents {
  events: { name: string; count: number; lastSeenAt?: string }[];
}

@Controller('analytics')
export class TopEventsController {
  constructor(
    @InjectDataSource(ANALYTICS) private readonly db: DataSource,
    private readonly store: EventCountsStore,
  ) {}

  /**
   * Most frequent custom event names of the project: over all time, or, with `from`/`to`, over the
   * UTC days the range touches (whole days; at most 400 of them).
   */
  @Get('top-events')
  async topEvents(@ProjectId() projectId: string, @Query() query: TopEventsQueryDto): Promise<TopEvents> {
    if (query.from || query.to) {
      const range = chartRange(query.from, query.to, 'day');
      const rows = await this.store.topInDays(
        this.db.manager,
        projectId,
        range.from.toISOString().slice(0, 10),
        range.to.toISOString().slice(0, 10),
        query.limit,
      );
      return { events: rows.map((r) => ({ name: r.name, count: Number(r.n) })) };
    }
    const rows = await this.store.top(this.db.manager, projectId, query.limit);
    return {
      events: rows.map((r) => ({ name: r.name, count: Number(r.count), lastSeenAt: r.lastSeenAt.toISOString() })),
    };
  }
}
