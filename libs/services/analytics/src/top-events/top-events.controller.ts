import { ProjectId } from '@herald/auth';
import { Controller, Get, Query } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import type { Repository } from 'typeorm';
import { ANALYTICS } from '../consumer.js';
import { EventCount } from './event-count.entity.js';

export class TopEventsQueryDto {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100)
  limit: number = 10;
}

export interface TopEvents {
  events: { name: string; count: number; lastSeenAt: string }[];
}

@Controller('analytics')
export class TopEventsController {
  constructor(@InjectRepository(EventCount, ANALYTICS) private readonly counts: Repository<EventCount>) {}

  /** Most frequent custom event names of the project. */
  @Get('top-events')
  async topEvents(@ProjectId() projectId: string, @Query() query: TopEventsQueryDto): Promise<TopEvents> {
    const rows = await this.counts.find({ where: { projectId }, order: { count: 'DESC', name: 'ASC' }, take: query.limit });
    return { events: rows.map((r) => ({ name: r.name, count: Number(r.count), lastSeenAt: r.lastSeenAt.toISOString() })) };
  }
}
