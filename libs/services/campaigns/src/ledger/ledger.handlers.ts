import {
  Topics,
  type ContactSubscriptionChangedV1,
  type EmailLifecycleV1,
  type EventEnvelope,
} from '@herald/contracts';
import { EventBatchContext, EventContext, OnEvent, OnEventBatch } from '@herald/messaging';
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
 * row final (a delivered batch at once), the others record engagement. Emails of other origins, and of no ledger row (a test
 * send), change nothing.
 */
@Controller()
export class LedgerHandlers {
  /** `email.sent` and `email.failed` of a delivered batch: the rows become final in two statements, not one per email. */
  @OnEventBatch(CAMPAIGNS, Topics.EmailSent)
  onSent(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext): Promise<void> {
    return this.finalise(events, ctx, 'sent');
  }

  @OnEventBatch(CAMPAIGNS, Topics.EmailFailed)
  onFailed(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext): Promise<void> {
    return this.finalise(events, ctx, 'failed');
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

  private async finalise(
    events: EventEnvelope<EmailLifecycleV1>[],
    ctx: EventBatchContext,
    status: 'sent' | 'failed',
  ): Promise<void> {
    const items = events.flatMap((e) =>
      e.payload.campaignId
        ? [
            {
              campaignId: e.payload.campaignId,
              who: who(e.payload),
              outcome: {
                status,
                ...(status === 'failed' ? { error: e.payload.reason ?? 'failed' } : {}),
                at: new Date(e.occurredAt),
              },
            },
          ]
        : [],
    );
    if (items.length > 0) await LedgerRepository.finaliseMany(ctx.manager, items);
  }

  private async engage(e: EventEnvelope<EmailLifecycleV1>, ctx: EventContext, kind: Engagement): Promise<void> {
    if (!e.payload.campaignId) return;
    await LedgerRepository.engage(ctx.manager, e.payload.campaignId, who(e.payload), kind, new Date(e.occurredAt));
  }
}
