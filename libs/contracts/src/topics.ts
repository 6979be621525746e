/**
 * Every Kafka topic Herald publishes. Names are `<entity>.<fact>` in the past tense; each has a
 * versioned payload contract under `events/`. The dead-letter topic of `x` is `x.dlq`.
 * These names are a public interface (docs/events/asyncapi.yaml): never rename one.
 */
export const Topics = {
  ContactCreated: 'contact.created',
  ContactUpdated: 'contact.updated',
  ContactDeleted: 'contact.deleted',
  ContactSubscribed: 'contact.subscribed',
  ContactUnsubscribed: 'contact.unsubscribed',
  EventTracked: 'event.tracked',
  ProjectReset: 'project.reset',
  ProjectDeleted: 'project.deleted',
  DomainVerified: 'domain.verified',
  DomainUnverified: 'domain.unverified',
  EmailSent: 'email.sent',
  EmailDelivered: 'email.delivered',
  EmailBounced: 'email.bounced',
  EmailComplained: 'email.complained',
  EmailOpened: 'email.opened',
  EmailClicked: 'email.clicked',
  EmailFailed: 'email.failed',
  ResourceReferencesChanged: 'resource.references.changed',
  SegmentEntered: 'segment.entered',
  SegmentExited: 'segment.exited',
  CampaignScheduled: 'campaign.scheduled',
  CampaignSending: 'campaign.sending',
  CampaignSent: 'campaign.sent',
  CampaignCancelled: 'campaign.cancelled',
  WorkflowStarted: 'workflow.started',
  WorkflowStepCompleted: 'workflow.step.completed',
  WorkflowWaiting: 'workflow.waiting',
  WorkflowFinished: 'workflow.finished',
  BillingLimitReached: 'billing.limit.reached',
  ProjectSendingSuspended: 'project.sending.suspended',
  ProjectSendingResumed: 'project.sending.resumed',
} as const;

export type Topic = (typeof Topics)[keyof typeof Topics];

export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;
