import { Topics, type EventEnvelope } from '@herald/contracts';
import { EventContext, InjectOutbox, OnEvent, type Outbox } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { DomainChecks } from '../checks/domain-checks.js';
import { DOMAINS } from '../consumer.js';
import { domainUnverified } from '../domains/domain-events.js';
import { Domain } from '../domains/domain.entity.js';

/**
 * `project.reset` and `project.deleted`: the project's domains, keys and checks go; each verified
 * one publishes `domain.unverified` so senders stop using it.
 */
@Controller()
export class ProjectLifecycleHandler {
  constructor(
    @InjectOutbox(DOMAINS) private readonly outbox: Outbox,
    private readonly checks: DomainChecks,
  ) {}

  @OnEvent(DOMAINS, Topics.ProjectReset)
  onReset(@Payload() event: EventEnvelope, @Ctx() ctx: EventContext): Promise<void> {
    return this.wipe(event, ctx, 'project reset');
  }

  @OnEvent(DOMAINS, Topics.ProjectDeleted)
  onDeleted(@Payload() event: EventEnvelope, @Ctx() ctx: EventContext): Promise<void> {
    return this.wipe(event, ctx, 'project deleted');
  }

  private async wipe(event: EventEnvelope, ctx: EventContext, reason: string): Promise<void> {
    const m = ctx.manager;
    const domains = await m.find(Domain, { where: { projectId: event.projectId }, lock: { mode: 'pessimistic_write' } });
    if (domains.length === 0) return;
    const verified = domains.filter((d) => d.status === 'verified');
    await this.outbox.add(m, ...verified.map((d) => domainUnverified(d, reason, { correlationId: event.correlationId, causationId: event.eventId })));
    await this.checks.cancel(m, domains.map((d) => d.id));
    await m.delete(Domain, { projectId: event.projectId });
  }
}
