import { Topics, type ContactCreatedV1, type EventEnvelope } from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { GATEWAY } from '../../consumer.js';
import { ProjectSetup } from './project-setup.entity.js';

/** Notes a project's first contact for its onboarding state. */
@Controller()
export class ContactCreatedHandler {
  @OnEvent(GATEWAY, Topics.ContactCreated)
  async onContactCreated(@Payload() event: EventEnvelope<ContactCreatedV1>, @Ctx() ctx: EventContext): Promise<void> {
    await ctx.manager.query(
      `INSERT INTO ${tableName(ctx.manager, ProjectSetup)} AS s (project_id, first_contact_at) VALUES ($1, $2)
       ON CONFLICT (project_id) DO UPDATE SET first_contact_at = LEAST(COALESCE(s.first_contact_at, EXCLUDED.first_contact_at), EXCLUDED.first_contact_at)`,
      [event.projectId, event.occurredAt],
    );
  }
}
