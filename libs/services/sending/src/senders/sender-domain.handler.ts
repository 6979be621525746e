import { Topics, type DomainVerificationV1, type EventEnvelope } from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { SENDING } from '../consumer.js';
import { SenderDomain } from './sender-domain.entity.js';
import { SenderDomains } from './sender-domains.js';

/** Keeps the read model of verified sender domains (and their sealed DKIM keys) from the domains service's events. */
@Controller()
export class SenderDomainHandler {
  constructor(private readonly senders: SenderDomains) {}

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
    await ctx.manager.query(
      `INSERT INTO ${tableName(ctx.manager, SenderDomain)} (domain_id, project_id, domain, verified, dkim_selector, dkim_private_key_sealed, event_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now())
       ON CONFLICT (domain_id) DO UPDATE SET verified = EXCLUDED.verified,
         dkim_selector = COALESCE(EXCLUDED.dkim_selector, sender_domains.dkim_selector),
         dkim_private_key_sealed = COALESCE(EXCLUDED.dkim_private_key_sealed, sender_domains.dkim_private_key_sealed),
         event_at = EXCLUDED.event_at, updated_at = now()
       WHERE sender_domains.event_at <= EXCLUDED.event_at`,
      [
        p.domainId,
        event.projectId,
        p.domain,
        verified,
        p.dkimSelector ?? null,
        p.dkimPrivateKeySealed ?? null,
        event.occurredAt,
      ],
    );
  }
}
