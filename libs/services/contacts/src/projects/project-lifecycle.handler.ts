import { Topics, type EventEnvelope } from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { Contact } from '../contacts/contact.entity.js';
import { CONTACTS } from '../consumer.js';
import { TrackedEvent } from '../events/tracked-event.entity.js';

/** `project.reset` and `project.deleted`: the project's contacts and events go. */
@Controller()
export class ProjectLifecycleHandler {
  @OnEvent(CONTACTS, Topics.ProjectReset)
  onReset(@Payload() event: EventEnvelope, @Ctx() ctx: EventContext): Promise<void> {
    return this.wipe(event.projectId, ctx);
  }

  @OnEvent(CONTACTS, Topics.ProjectDeleted)
  onDeleted(@Payload() event: EventEnvelope, @Ctx() ctx: EventContext): Promise<void> {
    return this.wipe(event.projectId, ctx);
  }

  private async wipe(projectId: string, ctx: EventContext): Promise<void> {
    await ctx.manager.query(`DELETE FROM ${tableName(ctx.manager, TrackedEvent)} WHERE project_id = $1`, [projectId]);
    await ctx.manager.query(`DELETE FROM ${tableName(ctx.manager, Contact)} WHERE project_id = $1`, [projectId]);
  }
}
