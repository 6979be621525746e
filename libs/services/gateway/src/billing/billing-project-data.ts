import { Topics, type EventEnvelope } from '@herald/contracts';
import type { EventContext, ProjectDataHook, ProjectDataTopic } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { BillingUsage } from './billing.entities.js';

/** On `project.reset` the project's contacts are deleted without `contact.deleted` events: the stored-contacts gauge goes to 0. */
@Injectable()
export class BillingProjectData implements ProjectDataHook {
  async beforeDelete(event: EventEnvelope, ctx: EventContext, topic: ProjectDataTopic): Promise<void> {
    if (topic === Topics.ProjectReset)
      await ctx.manager.update(BillingUsage, { projectId: event.projectId, category: 'contacts' }, { used: 0 });
  }
}
