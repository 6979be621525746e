import { normaliseEmail } from '@herald/contact-data';
import {
  isTestModeEvent,
  Topics,
  type EmailLifecycleV1,
  type EventEnvelope,
  type SubscriptionChangeReason,
} from '@herald/contracts';
import { EventContext, OnEvent } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { ContactWriter } from '../contacts/contact-writer.js';
import { ContactStore } from '../contacts/contacts.store.js';
import { CONTACTS } from '../consumer.js';

/**
 * A permanent bounce or a complaint unsubscribes the contact (the sending service suppresses the
 * address on its side): through the one write path, so contact.unsubscribed goes out with the reason.
 * A simulated one of test mode (docs/test-mode.md) changes no contact.
 */
@Controller()
export class DeliveryFeedbackHandler {
  constructor(
    private readonly writer: ContactWriter,
    private readonly contacts: ContactStore,
  ) {}

  @OnEvent(CONTACTS, Topics.EmailBounced)
  async onBounced(@Payload() event: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext): Promise<void> {
    if (event.payload.bounceType !== 'permanent') return;
    await this.unsubscribe(event, ctx, 'bounce');
  }

  @OnEvent(CONTACTS, Topics.EmailComplained)
  async onComplained(@Payload() event: EventEnvelope<EmailLifecycleV1>, @Ctx() ctx: EventContext): Promise<void> {
    await this.unsubscribe(event, ctx, 'complaint');
  }

  private async unsubscribe(
    event: EventEnvelope<EmailLifecycleV1>,
    ctx: EventContext,
    reason: SubscriptionChangeReason,
  ): Promise<void> {
    if (isTestModeEvent(event)) return;
    const id = await this.contacts.idOf(
      ctx.manager,
      event.projectId,
      event.payload.contactId ?? '',
      normaliseEmail(event.payload.email),
    );
    if (!id) return;
    await this.writer.update(
      ctx.manager,
      { projectId: event.projectId, subscribedIfNew: false, reason, correlationId: event.eventId },
      id,
      { subscribed: false },
    );
  }
}
