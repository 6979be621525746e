import { Topics, type ContactCreatedV1, type EventEnvelope } from '@herald/contracts';
import { EventBatchContext, OnEventBatch } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { BillingMeter } from '../../billing/billing-meter.js';
import { countByProject } from '../../billing/metering.handlers.js';
import { GATEWAY } from '../../consumer.js';
import { ProjectSetup } from './project-setup.entity.js';

/**
 * Notes that a project has contacts, for its onboarding state (the first event seen wins): one insert
 * per delivered batch; and counts them in the stored-contacts gauge of billing consumption. `gather`:
 * neither depends on the order of topics, and a relay round interleaves `contact.created` with
 * `event.tracked` (a run of one event each was a counter update per event).
 */
@Controller()
export class ContactCreatedHandler {
  constructor(private readonly meter: BillingMeter) {}

  @OnEventBatch(GATEWAY, Topics.ContactCreated, { gather: true })
  async onContactsCreated(
    @Payload() events: EventEnvelope<ContactCreatedV1>[],
    @Ctx() ctx: EventBatchContext,
  ): Promise<void> {
    const first = new Map<string, string>();
    for (const e of events) if (!first.has(e.projectId)) first.set(e.projectId, e.occurredAt);
    const projects = [...first.keys()].sort();
    await ctx.manager.query(
      // DO NOTHING takes no row lock: a burst of contact.created (an import) does not queue on this row.
      `INSERT INTO ${tableName(ctx.manager, ProjectSetup)} (project_id, first_contact_at)
       SELECT * FROM unnest($1::varchar[], $2::timestamptz[]) ON CONFLICT (project_id) DO NOTHING`,
      [projects, projects.map((p) => first.get(p)!)],
    );
    for (const [projectId, times] of countByProject(events))
      await this.meter.contacts(ctx.manager, projectId, times.length);
  }
}
