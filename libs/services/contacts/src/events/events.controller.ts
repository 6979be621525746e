import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import { CursorQueryDto, type CursorPage } from '@herald/http';
import { idempotencyKeyOf } from '@herald/persistence';
import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Usage } from '@herald/messaging';
import { EventsService, type EventStats, type TrackedEventView } from './events.service.js';
import { TrackEventDto } from './track-event.dto.js';
import { TrackEventUseCase, type TrackEventResult } from './track-event.use-case.js';

@Controller()
export class EventsController {
  constructor(
    private readonly trackEvent: TrackEventUseCase,
    private readonly events: EventsService,
  ) {}

  /**
   * Writes the contact and its event, this service's own: only a project reset (the gateway's) must
   * have been applied. An `Idempotency-Key` records one event per key and body (docs/contacts.md).
   */
  @Post('v1/track')
  @ObservesWritesOf('gateway')
  @HttpCode(200)
  async track(
    @ProjectId() projectId: string,
    @Body() body: TrackEventDto,
    @Headers('idempotency-key') key: string | string[] | undefined,
    @Req() req: FastifyRequest,
  ): Promise<{ success: true; data: TrackEventResult }> {
    return {
      success: true,
      data: await this.trackEvent.execute(projectId, body, String(req.id), idempotencyKeyOf(key)),
    };
  }

  /** Dashboard alias of /v1/track. */
  @Post('events/track')
  @ObservesWritesOf('gateway')
  @HttpCode(200)
  trackFromDashboard(
    @ProjectId() projectId: string,
    @Body() body: TrackEventDto,
    @Headers('idempotency-key') key: string | string[] | undefined,
    @Req() req: FastifyRequest,
  ): Promise<{ success: true; data: TrackEventResult }> {
    return this.track(projectId, body, key, req);
  }

  @Get('events')
  list(@ProjectId() projectId: string, @Query() query: CursorQueryDto): Promise<CursorPage<TrackedEventView>> {
    return this.events.list(projectId, query);
  }

  @Get('events/stats')
  stats(@ProjectId() projectId: string): Promise<EventStats> {
    return this.events.stats(projectId);
  }

  @Get('events/names')
  names(@ProjectId() projectId: string): Promise<{ names: string[] }> {
    return this.events.names(projectId);
  }

  @Get('events/contact/:contactId')
  forContact(
    @ProjectId() projectId: string,
    @Param('contactId') contactId: string,
    @Query() query: CursorQueryDto,
  ): Promise<CursorPage<TrackedEventView>> {
    return this.events.forContact(projectId, contactId, query);
  }

  @Get('events/:eventName/usage')
  usage(@ProjectId() projectId: string, @Param('eventName') eventName: string): Promise<Usage> {
    return this.events.usageOf(projectId, eventName);
  }

  @Delete('events/:eventName')
  deleteByName(@ProjectId() projectId: string, @Param('eventName') eventName: string): Promise<{ deleted: number }> {
    return this.events.deleteByName(projectId, eventName);
  }
}
