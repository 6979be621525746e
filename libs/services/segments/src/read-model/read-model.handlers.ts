import {
  liveEmailEvents,
  Topics,
  type ContactCreatedV1,
  type ContactDeletedV1,
  type ContactSubscriptionChangedV1,
  type ContactUpdatedV1,
  type EmailLifecycleV1,
  type EventEnvelope,
  type EventTrackedV1,
} from '@herald/contracts';
import { touchedByContactUpdate } from '@herald/filters';
import { EventBatchContext, EventContext, OnEvent, OnEventBatch } from '@herald/messaging';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { ReadModelStore, type ContactKey } from '../contacts/read-model.store.js';
import { rounds } from '../contacts/rounds.js';
import { SEGMENTS } from '../consumer.js';
import type { ContactChange } from '../membership/change-reach.js';
import { MembershipEngine, type ChangedContact, type Trace } from '../membership/membership-engine.js';

const trace = (e: EventEnvelope): Trace => ({
  causationId: e.eventId,
  ...(e.correlationId ? { correlationId: e.correlationId } : {}),
});

/** `email.<topic suffix>` → the engagement kind filters name (`email.failed` is not engagement). */
const ENGAGEMENT: Record<string, string> = {
  [Topics.EmailSent]: 'sent',
  [Topics.EmailDelivered]: 'delivered',
  [Topics.EmailOpened]: 'opened',
  [Topics.EmailClicked]: 'clicked',
  [Topics.EmailBounced]: 'bounced',
  [Topics.EmailComplained]: 'complained',
};

/**
 * Feeds the read model from the contacts and sending events, through the idempotent inbox: each
 * handler takes every event of its topic in a delivered batch (`gather`: the read model does not
 * depend on the order of topics, see ReadModelStore), writes them with a few multi-row statements
 * in `ctx.manager` (the transaction that records them as applied), then re-evaluates the changed
 * contacts against their project's tracked segments in the same transaction, so a membership change
 * commits (and its `segment.entered`/`segment.exited` is published) with the contact change that
 * caused it.
 */
@Controller()
export class ReadModelHandlers {
  constructor(
    private readonly writer: ReadModelStore,
    private readonly membership: MembershipEngine,
  ) {}

  @OnEventBatch(SEGMENTS, Topics.ContactCreated, { gather: true })
  onCreated(@Payload() events: EventEnvelope<ContactCreatedV1>[], @Ctx() ctx: EventBatchContext) {
    return this.contacts(events, ctx, true);
  }

  @OnEventBatch(SEGMENTS, Topics.ContactUpdated, { gather: true })
  onUpdated(@Payload() events: EventEnvelope<ContactUpdatedV1>[], @Ctx() ctx: EventBatchContext) {
    return this.contacts(events, ctx, false);
  }

  @OnEventBatch(SEGMENTS, Topics.ContactSubscribed, { gather: true })
  onSubscribed(@Payload() events: EventEnvelope<ContactSubscriptionChangedV1>[], @Ctx() ctx: EventBatchContext) {
    return this.subscription(events, ctx, true);
  }

  @OnEventBatch(SEGMENTS, Topics.ContactUnsubscribed, { gather: true })
  onUnsubscribed(@Payload() events: EventEnvelope<ContactSubscriptionChangedV1>[], @Ctx() ctx: EventBatchContext) {
    return this.subscription(events, ctx, false);
  }

  @OnEvent(SEGMENTS, Topics.ContactDeleted)
  async onDeleted(@Payload() e: EventEnvelope<ContactDeletedV1>, @Ctx() ctx: EventContext): Promise<void> {
    await this.writer.deleteContact(ctx.manager, e.projectId, e.payload.contactId, new Date(e.occurredAt));
    await this.membership.onContactDeleted(ctx.manager, e.projectId, e.payload, trace(e));
  }

  @OnEventBatch(SEGMENTS, Topics.EventTracked, { gather: true })
  async onTracked(@Payload() events: EventEnvelope<EventTrackedV1>[], @Ctx() ctx: EventBatchContext): Promise<void> {
    for (const round of byContact(events, (e) => e.payload.contactId)) {
      await this.writer.addEvents(
        ctx.manager,
        round.map((e) => ({
          projectId: e.projectId,
          contactId: e.payload.contactId,
          name: e.payload.name,
          at: new Date(e.occurredAt),
          ...(e.payload.eventRecordId ? { recordId: e.payload.eventRecordId } : {}),
        })),
      );
      await this.membership.onContactsChanged(
        ctx.manager,
        round.map((e) => ({
          projectId: e.projectId,
          contactId: e.payload.contactId,
          trace: trace(e),
          change: { kind: 'event', name: e.payload.name },
        })),
      );
    }
  }

  @OnEventBatch(SEGMENTS, Topics.EmailSent, { gather: true })
  onSent(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.engagement(events, ctx);
  }

  @OnEventBatch(SEGMENTS, Topics.EmailDelivered, { gather: true })
  onDelivered(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.engagement(events, ctx);
  }

  @OnEventBatch(SEGMENTS, Topics.EmailOpened, { gather: true })
  onOpened(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.engagement(events, ctx);
  }

  @OnEventBatch(SEGMENTS, Topics.EmailClicked, { gather: true })
  onClicked(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.engagement(events, ctx);
  }

  @OnEventBatch(SEGMENTS, Topics.EmailBounced, { gather: true })
  onBounced(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.engagement(events, ctx);
  }

  @OnEventBatch(SEGMENTS, Topics.EmailComplained, { gather: true })
  onComplained(@Payload() events: EventEnvelope<EmailLifecycleV1>[], @Ctx() ctx: EventBatchContext) {
    return this.engagement(events, ctx);
  }

  private async contacts(
    events: EventEnvelope<ContactCreatedV1 | ContactUpdatedV1>[],
    ctx: EventBatchContext,
    created: boolean,
  ): Promise<void> {
    for (const round of byContact(events, (e) => e.payload.contactId)) {
      const applied = await this.writer.upsertContacts(
        ctx.manager,
        round.map((e) => ({ projectId: e.projectId, state: e.payload, at: new Date(e.occurredAt), created })),
      );
      // a creation moves the contact from nothing to what it holds; an update touches its changed keys
      const change = (e: EventEnvelope<ContactCreatedV1 | ContactUpdatedV1>): ContactChange =>
        created
          ? { kind: 'created' }
          : { kind: 'contact', keys: touchedByContactUpdate((e.payload as Partial<ContactUpdatedV1>).changedKeys) };
      await this.membership.onContactsChanged(ctx.manager, changed(round, applied, change));
    }
  }

  private async subscription(
    events: EventEnvelope<ContactSubscriptionChangedV1>[],
    ctx: EventBatchContext,
    subscribed: boolean,
  ): Promise<void> {
    for (const round of byContact(events, (e) => e.payload.contactId)) {
      const applied = await this.writer.setSubscribedMany(
        ctx.manager,
        round.map((e) => ({
          projectId: e.projectId,
          contactId: e.payload.contactId,
          subscribed,
          at: new Date(e.occurredAt),
        })),
      );
      await this.membership.onContactsChanged(
        ctx.manager,
        changed(round, applied, () => ({ kind: 'contact', keys: new Set(['subscribed', 'updatedAt']) })),
      );
    }
  }

  private async engagement(events: EventEnvelope<EmailLifecycleV1>[], ctx: EventBatchContext): Promise<void> {
    // test mode (docs/test-mode.md) is no engagement: its emails never reached anyone
    const engaged = liveEmailEvents(events).filter((e) => ENGAGEMENT[e.type]);
    const ids = await this.writer.contactIdsFor(
      ctx.manager,
      engaged.map((e) => ({ projectId: e.projectId, contactId: e.payload.contactId, email: e.payload.email })),
    );
    const known = engaged.flatMap((e, i) => (ids[i] ? [{ e, contactId: ids[i] }] : []));
    for (const round of rounds(
      known,
      (k) => k.contactId,
      (k) => k.e.projectId,
    )) {
      await this.writer.addEngagements(
        ctx.manager,
        round.map(({ e, contactId }) => ({
          projectId: e.projectId,
          contactId,
          kind: ENGAGEMENT[e.type]!,
          at: new Date(e.occurredAt),
        })),
      );
      await this.membership.onContactsChanged(
        ctx.manager,
        round.map(({ e, contactId }) => ({
          projectId: e.projectId,
          contactId,
          trace: trace(e),
          change: { kind: 'contact', keys: new Set([`email.${ENGAGEMENT[e.type]!}`]) },
        })),
      );
    }
  }
}

/**
 * A topic's events in rounds where each contact appears once, in their order: each round is written
 * and its contacts re-evaluated before the next, so that a contact changed twice in one delivered
 * batch enters and leaves as if its events had come one at a time (most batches are one round).
 */
const byContact = <T extends EventEnvelope>(events: T[], contactOf: (e: T) => string): T[][] =>
  rounds(events, contactOf, (e) => e.projectId);

/**
 * The changes behind the contacts a write applied, the last event of each contact named as the
 * cause, each as its event changed the contact.
 */
function changed<T extends { contactId: string }>(
  events: EventEnvelope<T>[],
  applied: ContactKey[],
  change: (e: EventEnvelope<T>) => ContactChange,
): ChangedContact[] {
  const keys = new Set(applied.map((a) => `${a.projectId}\u0000${a.contactId}`));
  return events
    .filter((e) => keys.has(`${e.projectId}\u0000${e.payload.contactId}`))
    .map((e) => ({
      projectId: e.projectId,
      contactId: e.payload.contactId,
      trace: trace(e),
      change: change(e),
    }));
}
