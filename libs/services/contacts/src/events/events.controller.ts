import { ProjectId } from '@herald/auth';
import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { EventStatsQuery, type EventStats } from './event-stats.query.js';
import { TrackEventDto } from './track-event.dto.js';
import { TrackEventUseCase, type TrackEventResult } from './track-event.use-case.js';

@Controller()
export class EventsController {
  constructor(
    private readonly trackEvent: TrackEventUseCase,
    private readonly eventStats: EventStatsQuery,
  ) {}

  @Post('v1/track')
  @HttpCode(200)
  async track(@ProjectId() projectId: string, @Body() body: TrackEventDto, @Req() req: FastifyRequest): Promise<{ success: true; data: TrackEventResult }> {
    return { success: true, data: await this.trackEvent.execute(projectId, body, String(req.id)) };
  }

  @Get('events/stats')
  stats(@ProjectId() projectId: string): Promise<EventStats> {
    return this.eventStats.execute(projectId);
  }
}
