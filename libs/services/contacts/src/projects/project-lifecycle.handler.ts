import { Topics, type EventEnvelope } from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { deleteProjectRows } from '@herald/persistence';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { Contact } from '../contacts/contact.entity.js';
import { CONTACTS } from '../consumer.js';
import { TrackedEvent } from '../events/tracked-event.entity.js';
import { BulkJob } from '../bulk/bulk-job.entity.js';
import { ContactField } from '../fields/contact-field.entity.js';
import { ContactImport } from '../imports/contact-import.entity.js';

/** `project.reset` and `project.deleted`: the project's contacts, fields, events and jobs go. */
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
    await deleteProjectRows(ctx.manager, projectId, [TrackedEvent, Contact, ContactField, ContactImport, BulkJob]);
  }
}
