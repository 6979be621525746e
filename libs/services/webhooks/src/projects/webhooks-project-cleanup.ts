import type { EventEnvelope } from '@herald/contracts';
import type { EventContext, ProjectDataHook } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { DeliveryLanes } from '../deliveries/delivery-lanes.js';

/**
 * Before a reset or deleted project's endpoints, deliveries and lanes go (the project-data mechanism
 * deletes the rows): their queued links and dead deliveries' jobs are dropped; a running link finds
 * its lane gone.
 */
@Injectable()
export class WebhooksProjectCleanup implements ProjectDataHook {
  constructor(private readonly lanes: DeliveryLanes) {}

  async beforeDelete(event: EventEnvelope, ctx: EventContext): Promise<void> {
    await this.lanes.cancelProject(ctx.manager, event.projectId);
  }
}
