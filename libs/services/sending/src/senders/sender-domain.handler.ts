import { Topics, type DomainVerificationV1, type EventEnvelope } from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { SENDING } from '../consumer.js';
import { SenderDomainStore } from './sender-domain.store.js';
import { SenderDomains } from './sender-domains.js';

/** Keeps the read model of verified sender domains (and their sealed DKIM keys) from the domains service's events. */
@Controller()
export class SenderDomainHandler {
  constructor(
    private readonly senders: SenderDomains,
    private readonly store: SenderDomainStore,
  ) {}

  @OnEvent(SENDING, Topics.DomainVerified)
  onVerified(@Payload() event: EventEnvelope<DomainVerificationV1>, @Ctx() ctx: EventContext): Promise<void> {
    return this.apply(event, true, ctx);
  }

  @OnEvent(SENDING, Topics.DomainUnverified)
  onUnverified(@Payload() event: EventEnvelope<DomainVerificationV1>, @Ctx() ctx: EventContext): Promise<void> {
    return this.apply(event, false, ctx);
  }

  private async apply(event: EventEnvelope<DomainVerificationV1>, verified: boolean, ctx: EventContext): Promise<void> {
    const p = event.payload;
    if (!verified) this.senders.forget(event.projectId, p.domain);
    // newest event wins: a redelivered older event never undoes a newer state
    await this.store.apply(ctx.manager, {
      domainId: p.domainId,
      projectId: event.projectId,
      domain: p.domain,
      verified,
      dkimSelector: p.dkimSelector ?? null,
      dkimPrivateKeySealed: p.dkimPrivateKeySealed ?? null,
      eventAt: event.occurredAt,
    });
  }
}
