import { Topics, type ContactCreatedV1, type EventEnvelope } from '@herald/contracts';
import { EventBatchContext, OnEventBatch } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { GATEWAY } from '../consumer.js';
import { ProjectSetupStore } from '../projects/setup/project-setup.store.js';
import { BillingMeter } from './billing-meter.js';
import { countByProject } from './metering.handlers.js';

/**
 * Notes that a project has contacts, for its onboarding state (the first event seen wins): one insert
 * per delivered batch; and counts them in the stored-contacts gauge of billing consumption. `gather`:
 * neither depends on the order of topics, and a relay round interleaves `contact.created` with
 * `event.tracked` (a run of one event each was a counter update per event).
 */
@Controller()
export class ContactCreatedHandler {
  constructor(
    private readonly setup: ProjectSetupStore,
    private readonly meter: BillingMeter,
  ) {}

  @OnEventBatch(GATEWAY, Topics.ContactCreated, { gather: true })
  async onContactsCreated(
    @Payload() events: EventEnvelope<ContactCreatedV1>[],
    @Ctx() ctx: EventBatchContext,
  ): Promise<void> {
    const first = new Map<string, string>();
    for (const e of events) if (!first.has(e.projectId)) first.set(e.projectId, e.occurredAt);
    const projects = [...first.keys()].sort();
    await this.setup.noteFirstContacts(
      ctx.manager,
      projects,
      projects.map((p) => first.get(p)!),
    );
    for (const [projectId, times] of countByProject(events))
      await this.meter.contacts(ctx.manager, projectId, times.length);
  }
}
