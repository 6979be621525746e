import { ProjectId } from '@herald/auth';
import { ObservesWritesOf } from '@herald/core';
import { CursorQueryDto, type CursorPage } from '@herald/http';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './endpoint.dto.js';
import type { WebhookEndpointView, WebhookEndpointWithSecret } from './endpoint-view.js';
import { EndpointsService } from './endpoints.service.js';

/** A project's webhook endpoints (docs/webhooks-out.md). They read only the service's own tables. */
@ObservesWritesOf('gateway')
@Controller('webhooks/endpoints')
export class EndpointsController {
  constructor(private readonly endpoints: EndpointsService) {}

  /** 201 with the endpoint and its signing secret (`whsec_…`), shown this once. */
  @Post()
  create(@ProjectId() projectId: string, @Body() body: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecret> {
    return this.endpoints.create(projectId, body);
  }

  @Get()
  list(@ProjectId() projectId: string, @Query() q: CursorQueryDto): Promise<CursorPage<WebhookEndpointView>> {
    return this.endpoints.list(projectId, q);
  }

  @Get(':id')
  get(@ProjectId() projectId: string, @Param('id') id: string): Promise<WebhookEndpointView> {
    return this.endpoints.get(projectId, id);
  }

  @Patch(':id')
  update(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointView> {
    return this.endpoints.update(projectId, id, body);
  }

  /** Deletes the endpoint and its delivery log; nothing more is delivered to it. */
  @Delete(':id')
  async remove(@ProjectId() projectId: string, @Param('id') id: string): Promise<{ success: true }> {
    await this.endpoints.remove(projectId, id);
    return { success: true };
  }

  /** A new signing secret, shown this once; the previous one keeps signing beside it for 24 hours. */
  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotateSecret(@ProjectId() projectId: string, @Param('id') id: string): Promise<WebhookEndpointWithSecret> {
    return this.endpoints.rotateSecret(projectId, id);
  }
}
