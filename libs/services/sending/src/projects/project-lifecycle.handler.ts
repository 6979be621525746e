import { Topics, type EventEnvelope } from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { deleteProjectRows } from '@herald/persistence';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { SENDING } from '../consumer.js';
import { Email } from '../emails/email.entity.js';
import { Suppression } from '../emails/suppression.entity.js';
import { IdempotencyKey } from '../send/idempotency-key.entity.js';
import { Template } from '../templates/template.entity.js';

/** `project.reset` and `project.deleted`: the project's emails, templates and suppressions go (its domains go with the domains service's events). */
@Controller()
export class SendingProjectLifecycleHandler {
  @OnEvent(SENDING, Topics.ProjectReset)
  onReset(@Payload() event: EventEnvelope, @Ctx() ctx: EventContext): Promise<void> {
    return this.wipe(event.projectId, ctx);
  }

  @OnEvent(SENDING, Topics.ProjectDeleted)
  onDeleted(@Payload() event: EventEnvelope, @Ctx() ctx: EventContext): Promise<void> {
    return this.wipe(event.projectId, ctx);
  }

  private async wipe(projectId: string, ctx: EventContext): Promise<void> {
    await deleteProjectRows(ctx.manager, projectId, [Email, Template, Suppression, IdempotencyKey]);
  }
}
