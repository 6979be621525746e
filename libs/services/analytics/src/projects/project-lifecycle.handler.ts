import { Topics, type EventEnvelope } from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { deleteProjectRows } from '@herald/persistence';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { ANALYTICS } from '../consumer.js';
import { EventCount } from '../top-events/event-count.entity.js';

/** `project.reset` and `project.deleted`: the project's aggregates go. */
@Controller()
export class ProjectLifecycleHandler {
  @OnEvent(ANALYTICS, Topics.ProjectReset)
  onReset(@Payload() event: EventEnvelope, @Ctx() ctx: EventContext): Promise<void> {
    return this.wipe(event.projectId, ctx);
  }

  @OnEvent(ANALYTICS, Topics.ProjectDeleted)
  onDeleted(@Payload() event: EventEnvelope, @Ctx() ctx: EventContext): Promise<void> {
    return this.wipe(event.projectId, ctx);
  }

  private async wipe(projectId: string, ctx: EventContext): Promise<void> {
    await deleteProjectRows(ctx.manager, projectId, [EventCount]);
  }
}
