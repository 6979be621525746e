import {
  Topics,
  type ContactSubscriptionChangedV1,
  type EmailLifecycleV1,
  type EventEnvelope,
} from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { CAMPAIGNS } from '../consumer.js';
import { LedgerRepository } from './ledger.repository.js';

type Engagement = 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained';

/** The email of a campaign, as its ledger row is found: by contact id, else by address. */
const who = (p: EmailLifecycleV1) => ({
  ...(p.contactId ? { contactId: p.contactId } : {}),
  email: p.email,
  ...(p.emailId ? { emailId: p.emailId } : {}),
});

/**
 * Follows the emails of campaigns (`email.*` carrying `campaignId`) into the ledger, through the
 * idempotent inbox (each handler writes in `ctx.manager`): `email.sent` and `email.failed` make the
 * row final, the others record engagement. Emails of other origins, and of no ledger row (a test
 * send), change nothing.
 */
@Controller()
export class LedgerHandlers {
  @OnEvent(CAMPAIGNS, Topics.EmailSent)
  async onSent(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext): Promise<void> {
    if (!e.payload.campaignId) return;
    await LedgerRepository.finalise(ctx.manager, e.payload.campaignId, who(e.payload), {
      status: 'sent',
      at: new Date(e.occurredAt),
    });
  }

  @OnEvent(CAMPAIGNS, Topics.EmailFailed)
  async onFailed(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext): Promise<void> {
    if (!e.payload.campaignId) return;
    await LedgerRepository.finalise(ctx.manager, e.payload.campaignId, who(e.payload), {
      status: 'failed',
      error: e.payload.reason ?? 'failed',
      at: new Date(e.occurredAt),
    });
  }

  @OnEvent(CAMPAIGNS, Topics.EmailDelivered)
  onDelivered(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext) {
    return this.engage(e, ctx, 'delivered');
  }

  @OnEvent(CAMPAIGNS, Topics.EmailOpened)
  onOpened(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext) {
    return this.engage(e, ctx, 'opened');
  }

  @OnEvent(CAMPAIGNS, Topics.EmailClicked)
  onClicked(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext) {
    return this.engage(e, ctx, 'clicked');
  }

  @OnEvent(CAMPAIGNS, Topics.EmailBounced)
  onBounced(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext) {
    return this.engage(e, ctx, 'bounced');
  }

  @OnEvent(CAMPAIGNS, Topics.EmailComplained)
  onComplained(@Payload() e: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext) {
    return this.engage(e, ctx, 'complained');
  }

  /**
   * An unsubscribe through a campaign email's link (sending names the email's campaign on the
   * event): the recipient's row records it, and the campaign's stats count it.
   */
  @OnEvent(CAMPAIGNS, Topics.ContactUnsubscribed)
  async onUnsubscribed(
    @Payload() e: EventEnvelope<ContactSubscriptionChangedV1>,
    @Ctx() ctx: EventContext,
  ): Promise<void> {
    if (!e.payload.campaignId) return;
    await LedgerRepository.engage(
      ctx.manager,
      e.payload.campaignId,
      { contactId: e.payload.contactId, email: e.payload.email },
      'unsubscribed',
      new Date(e.occurredAt),
    );
  }

  private async engage(e: EventEnvelope<EmailLifecycleV1>, ctx: EventContext, kind: Engagement): Promise<void> {
    if (!e.payload.campaignId) return;
    await LedgerRepository.engage(ctx.manager, e.payload.campaignId, who(e.payload), kind, new Date(e.occurredAt));
  }
}
