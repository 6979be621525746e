import {
  Topics,
  type ContactCreatedV1,
  type ContactDeletedV1,
  type ContactSubscriptionChangedV1,
  type EmailLifecycleV1,
  type EmailReceivedV1,
  type EventEnvelope,
  type EventTrackedV1,
  type SegmentMembershipChangedV1,
  type WorkflowExecutionV1,
} from '@herald/contracts';

/**
 * The feed's types: the topic each item came from. `contact.updated`, `campaign.*` and
 * `workflow.waiting` feed other parts of the projection (campaign counters, the upcoming list) but
 * are not feed items.
 */
export const ACTIVITY_TYPES = [
  Topics.EmailSent,
  Topics.EmailDelivered,
  Topics.EmailOpened,
  Topics.EmailClicked,
  Topics.EmailBounced,
  Topics.EmailComplained,
  Topics.EmailFailed,
  Topics.EmailReceived,
  Topics.ContactCreated,
  Topics.ContactDeleted,
  Topics.ContactSubscribed,
  Topics.ContactUnsubscribed,
  Topics.EventTracked,
  Topics.SegmentEntered,
  Topics.SegmentExited,
  Topics.WorkflowStarted,
  Topics.WorkflowStepCompleted,
  Topics.WorkflowFinished,
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/**
 * The hourly row type of the `sent` metric: each email once, on its first `email.sent` or
 * `email.bounced` (a relay's immediate refusal has no `email.sent`), the campaign counters' rule.
 * Not a feed type: no feed item, no `/activity/types` entry.
 */
export const SENT_METRIC_TYPE = 'metric.sent';

/** The hourly row type each `/analytics/timeseries` metric reads. */
export const METRIC_TYPES = {
  sent: SENT_METRIC_TYPE,
  delivered: Topics.EmailDelivered,
  opened: Topics.EmailOpened,
  clicked: Topics.EmailClicked,
  bounced: Topics.EmailBounced,
  complained: Topics.EmailComplained,
} as const;
export type Metric = keyof typeof METRIC_TYPES;
export const METRICS = Object.keys(METRIC_TYPES) as Metric[];

/** One feed row as the projection writes it. */
export interface ActivityRow {
  eventId: string;
  projectId: string;
  type: ActivityType;
  occurredAt: string;
  contactId: string | null;
  contactEmail: string | null;
  emailId: string | null;
  emailSubject: string | null;
  campaignId: string | null;
  workflowId: string | null;
  workflowName: string | null;
  data: Record<string, unknown>;
}

const isFeedType = (t: string): t is ActivityType => (ACTIVITY_TYPES as readonly string[]).includes(t);

/** Keeps the defined values only (the feed's `data` carries no nulls or undefineds). */
const defined = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));

const base = (e: EventEnvelope, type: ActivityType): ActivityRow => ({
  eventId: e.eventId,
  projectId: e.projectId,
  type,
  occurredAt: e.occurredAt,
  contactId: null,
  contactEmail: null,
  emailId: null,
  emailSubject: null,
  campaignId: null,
  workflowId: null,
  workflowName: null,
  data: {},
});

/** The feed item an event makes, or null for an event that is not a feed item. */
export function toActivity(e: EventEnvelope): ActivityRow | null {
  if (!isFeedType(e.type)) return null;
  const row = base(e, e.type);
  if (e.type === Topics.EmailReceived) {
    // an inbound message: its sender as the contact, the campaign or workflow of the email it answers
    // (an email of the project's, which the item is not: no emailId), its own subject in its data
    const p = e.payload as EmailReceivedV1;
    return {
      ...row,
      contactId: p.contactId ?? null,
      contactEmail: p.email ?? null,
      campaignId: p.campaignId ?? null,
      workflowId: p.workflowId ?? null,
      data: defined({
        inboundId: p.inboundId,
        subject: p.subject,
        name: p.name,
        to: p.to,
        inReplyToEmailId: p.inReplyToEmailId,
        attachments: p.attachments,
      }),
    };
  }
  if (e.type.startsWith('email.')) {
    const p = e.payload as EmailLifecycleV1;
    return {
      ...row,
      contactId: p.contactId ?? null,
      contactEmail: p.email,
      emailId: p.emailId ?? null,
      emailSubject: p.subject ?? null,
      campaignId: p.campaignId ?? null,
      workflowId: p.workflowId ?? null,
      data: defined({
        origin: p.origin,
        templateId: p.templateId,
        bounceType: p.bounceType,
        reason: p.reason,
        url: p.url,
        // test mode (docs/test-mode.md): the feed shows the item, marked; no aggregate counts it
        testMode: p.testMode,
      }),
    };
  }
  if (e.type.startsWith('workflow.')) {
    const p = e.payload as WorkflowExecutionV1;
    return {
      ...row,
      contactId: p.contactId,
      contactEmail: p.email ?? null,
      workflowId: p.workflowId,
      workflowName: p.workflowName,
      data: defined({
        executionId: p.executionId,
        status: p.status,
        trigger: p.trigger,
        stepId: p.stepId,
        stepType: p.stepType,
        stepName: p.stepName,
        outcome: p.outcome,
        reason: p.reason,
      }),
    };
  }
  if (e.type.startsWith('segment.')) {
    const p = e.payload as SegmentMembershipChangedV1;
    return {
      ...row,
      contactId: p.contactId,
      contactEmail: p.email,
      data: { segmentId: p.segmentId, segmentName: p.segmentName, reason: p.reason },
    };
  }
  if (e.type === Topics.EventTracked) {
    const p = e.payload as EventTrackedV1;
    return {
      ...row,
      contactId: p.contactId,
      contactEmail: p.email,
      data: { name: p.name, eventRecordId: p.eventRecordId, data: p.data },
    };
  }
  if (e.type === Topics.ContactSubscribed || e.type === Topics.ContactUnsubscribed) {
    const p = e.payload as ContactSubscriptionChangedV1;
    return { ...row, contactId: p.contactId, contactEmail: p.email, data: defined({ reason: p.reason }) };
  }
  const p = e.payload as ContactCreatedV1 | ContactDeletedV1;
  return {
    ...row,
    contactId: p.contactId,
    contactEmail: p.email,
    data: 'subscribed' in p ? { subscribed: p.subscribed } : {},
  };
}

/**
 * The prefetch rule: an open within `windowMs` after the email was delivered (or, when no delivery
 * notification is known, after it was sent) is taken for a mail client's automatic fetch of the
 * images (Apple Mail Privacy Protection and the like fetch on arrival, not when read). It is
 * counted like any open, and flagged. An open seen before the delivery notification counts as one too.
 * Unknown (undefined) when neither time is known when the open is applied.
 */
export function isPrefetchOpen(
  openedAt: Date,
  email: { sentAt: Date | null; deliveredAt: Date | null } | undefined,
  windowMs: number,
): boolean | undefined {
  const reference = email?.deliveredAt ?? email?.sentAt;
  if (!reference) return undefined;
  const delay = openedAt.getTime() - reference.getTime();
  return delay <= windowMs;
}
