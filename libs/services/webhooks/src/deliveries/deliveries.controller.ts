import { ProjectId } from '@herald/auth';
import { ObservesWritesOf } from '@herald/core';
import { CursorQueryDto, type CursorPage } from '@herald/http';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { DeliveriesService } from './deliveries.service.js';
import { ReplayRangeDto } from './delivery.dto.js';
import type { WebhookDeliveryView } from './delivery-view.js';

/** An endpoint's deliveries: the log, replays and test events (docs/webhooks-out.md). */
@ObservesWritesOf('gateway')
@Controller('webhooks/endpoints/:id')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  /** The delivery log, newest first: each delivery's event, status, attempts, latency and the head of the last answer. */
  @Get('deliveries')
  log(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Query() q: CursorQueryDto,
  ): Promise<CursorPage<WebhookDeliveryView>> {
    return this.deliveries.log(projectId, id, q);
  }

  @Get('deliveries/:deliveryId')
  get(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryView> {
    return this.deliveries.get(projectId, id, deliveryId);
  }

  /** 202: the delivery goes out again now, with its event id and body, and a fresh retry schedule. */
  @Post('deliveries/:deliveryId/replay')
  @HttpCode(202)
  replayOne(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryView> {
    return this.deliveries.replayOne(projectId, id, deliveryId);
  }

  /** 202: every delivery of the endpoint created in [from, to) goes out again (at most 31 days). */
  @Post('replay')
  @HttpCode(202)
  replayRange(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: ReplayRangeDto,
  ): Promise<{ replayed: number }> {
    return this.deliveries.replayRange(projectId, id, new Date(body.from), new Date(body.to));
  }

  /** 202: a `webhook.test` event is delivered to the endpoint (whatever it subscribes to); the delivery, pending. */
  @Post('test')
  @HttpCode(202)
  test(@ProjectId() projectId: string, @Param('id') id: string): Promise<WebhookDeliveryView> {
    return this.deliveries.sendTest(projectId, id);
  }
}
