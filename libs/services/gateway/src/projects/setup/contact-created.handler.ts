import { Topics, type ContactCreatedV1, type EventEnvelope } from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { GATEWAY } from '../../consumer.js';
import { ProjectSetup } from './project-setup.entity.js';

/** Notes that a project has contacts, for its onboarding state (the first event seen wins). */
@Controller()
export class ContactCreatedHandler {
  @OnEvent(GATEWAY, Topics.ContactCreated)
  async onContactCreated(@Payload() event: EventEnvelope<ContactCreatedV1>, @Ctx() ctx: EventContext): Promise<void> {
    await ctx.manager.query(
      // DO NOTHING takes no row lock: a burst of contact.created (an import) does not queue on this row.
      `INSERT INTO ${tableName(ctx.manager, ProjectSetup)} (project_id, first_contact_at) VALUES ($1, $2) ON CONFLICT (project_id) DO NOTHING`,
      [event.projectId, event.occurredAt],
    );
  }
}
