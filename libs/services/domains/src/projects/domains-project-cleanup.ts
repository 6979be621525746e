import { Topics, type EventEnvelope } from '@herald/contracts';
import {
  InjectOutbox,
  type EventContext,
  type Outbox,
  type ProjectDataHook,
  type ProjectDataTopic,
} from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { DomainChecks } from '../domains/domain-checks.js';
import { DOMAINS } from '../consumer.js';
import { domainUnverified } from '../domains/domain-events.js';
import { Domain } from '../domains/domain.entity.js';

/**
 * Before a reset or deleted project's domains go (the project-data mechanism deletes the rows):
 * each verified one publishes `domain.unverified` so senders stop using it, and the domains'
 * scheduled checks are cancelled.
 */
@Injectable()
export class DomainsProjectCleanup implements ProjectDataHook {
  constructor(
    @InjectOutbox(DOMAINS) private readonly outbox: Outbox,
    private readonly checks: DomainChecks,
  ) {}

  async beforeDelete(event: EventEnvelope, ctx: EventContext, topic: ProjectDataTopic): Promise<void> {
    const m = ctx.manager;
    const domains = await m.find(Domain, {
      where: { projectId: event.projectId },
      lock: { mode: 'pessimistic_write' },
    });
    if (domains.length === 0) return;
    const reason = topic === Topics.ProjectDeleted ? 'project deleted' : 'project reset';
    const verified = domains.filter((d) => d.status === 'verified');
    await this.outbox.add(
      m,
      ...verified.map((d) =>
        domainUnverified(d, reason, { correlationId: event.correlationId, causationId: event.eventId }),
      ),
    );
    await this.checks.cancel(
      m,
      domains.map((d) => d.id),
    );
  }
}
