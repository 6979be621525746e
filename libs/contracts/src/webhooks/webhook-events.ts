import type { EventEnvelope } from '../envelope.js';
import type { EventContract } from '../event-contract.js';
import { CampaignSending, CampaignSent } from '../events/campaign-lifecycle/campaign-lifecycle.v1.js';
import { ContactCreated } from '../events/contact-created/contact-created.v1.js';
import { ContactDeleted } from '../events/contact-deleted/contact-deleted.v1.js';
import { ContactSubscribed, ContactUnsubscribed } from '../events/contact-subscription/contact-subscription.v1.js';
import { ContactUpdated } from '../events/contact-updated/contact-updated.v1.js';
import {
  EmailBounced,
  EmailClicked,
  EmailComplained,
  EmailDelivered,
  EmailFailed,
  EmailOpened,
  EmailSent,
} from '../events/email-lifecycle/email-lifecycle.v1.js';
import { EmailReceived } from '../events/email-received/email-received.v1.js';
import { SegmentEntered, SegmentExited } from '../events/segment-membership/segment-membership.v1.js';
import { WorkflowFinished, WorkflowStarted } from '../events/workflow-execution/workflow-execution.v1.js';

/**
 * The events a project's webhook endpoints may subscribe to (docs/webhooks-out.md), each the topic of
 * an event contract: the webhooks service consumes exactly these topics, a subscription's
 * `eventTypes` are checked against them, and a delivery's `data` is the contract's payload. Adding
 * an event type is one line here (its topic and its contract).
 */
export const WEBHOOK_EVENTS = {
  'email.sent': EmailSent,
  'email.delivered': EmailDelivered,
  'email.opened': EmailOpened,
  'email.clicked': EmailClicked,
  'email.bounced': EmailBounced,
  'email.complained': EmailComplained,
  'email.failed': EmailFailed,
  'email.received': EmailReceived,
  'contact.created': ContactCreated,
  'contact.updated': ContactUpdated,
  'contact.subscribed': ContactSubscribed,
  'contact.unsubscribed': ContactUnsubscribed,
  'contact.deleted': ContactDeleted,
  'segment.entered': SegmentEntered,
  'segment.exited': SegmentExited,
  'workflow.started': WorkflowStarted,
  'workflow.finished': WorkflowFinished,
  'campaign.sending': CampaignSending,
  'campaign.sent': CampaignSent,
} as const satisfies Record<string, EventContract<object>>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;

/** Every event type of {@link WEBHOOK_EVENTS}, in its order. */
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

export const isWebhookEventType = (type: string): type is WebhookEventType => Object.hasOwn(WEBHOOK_EVENTS, type);

/** The type of the event `POST /webhooks/endpoints/:id/test` sends, whatever the endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/**
 * The body of every webhook delivery (version 1 of this envelope): the event as its Kafka contract
 * has it, under public names. Signed by the Standard Webhooks scheme (`webhook-id` is `id`).
 */
export interface WebhookPayload<D extends object = Record<string, unknown>> {
  /** The event type, the Kafka topic: `email.delivered`. */
  type: string;
  /** The version of `data`'s contract (the event contract's version): a breaking change is a new version. */
  version: number;
  /** The event's id: the same in every attempt and replay of it (the `webhook-id` header); receivers de-duplicate on it. */
  id: string;
  /** When it happened (ISO 8601): the event's `occurredAt`. */
  timestamp: string;
  projectId: string;
  /** The event contract's payload. */
  data: D;
}

/** The webhook body of a consumed event. */
export function webhookPayload(envelope: EventEnvelope): WebhookPayload {
  return {
    type: envelope.type,
    version: envelope.version,
    id: envelope.eventId,
    timestamp: envelope.occurredAt,
    projectId: envelope.projectId,
    data: envelope.payload as Record<string, unknown>,
  };
}
