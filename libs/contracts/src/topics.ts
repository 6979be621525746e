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
  EmailReceived: 'email.received',
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

/**
 * The services that publish each topic: their outbox writes it (the outbox refuses any other topic).
 * A consumer of a topic reads a copy of its producers' writes, so read-your-writes waits on them
 * (docs/consistency.md). `<topic>.dlq` is written by whichever consumer gave up on an event.
 */
export const TOPIC_PRODUCERS: Readonly<Record<Topic, readonly string[]>> = {
  'contact.created': ['contacts'],
  'contact.updated': ['contacts'],
  'contact.deleted': ['contacts'],
  'contact.subscribed': ['contacts'],
  'contact.unsubscribed': ['contacts'],
  'event.tracked': ['contacts'],
  'project.reset': ['gateway'],
  'project.deleted': ['gateway'],
  'domain.verified': ['domains'],
  'domain.unverified': ['domains'],
  'email.sent': ['sending'],
  'email.delivered': ['sending'],
  'email.bounced': ['sending'],
  'email.complained': ['sending'],
  'email.opened': ['sending'],
  'email.clicked': ['sending'],
  'email.failed': ['sending'],
  'email.received': ['sending'],
  'resource.references.changed': ['segments', 'campaigns', 'workflows'],
  'segment.entered': ['segments'],
  'segment.exited': ['segments'],
  'campaign.scheduled': ['campaigns'],
  'campaign.sending': ['campaigns'],
  'campaign.sent': ['campaigns'],
  'campaign.cancelled': ['campaigns'],
  'workflow.started': ['workflows'],
  'workflow.step.completed': ['workflows'],
  'workflow.waiting': ['workflows'],
  'workflow.finished': ['workflows'],
  'billing.limit.reached': ['gateway'],
  'project.sending.suspended': ['gateway'],
  'project.sending.resumed': ['gateway'],
};

/** The producers of `topic` (none for a topic Herald does not know); a dead-letter topic has none. */
export function producersOf(topic: string): readonly string[] {
  return (TOPIC_PRODUCERS as Record<string, readonly string[]>)[topic] ?? [];
}

/** Whether `service` may publish `topic`: a producer of it, or any consumer for a dead-letter topic. */
export function mayPublish(service: string, topic: string): boolean {
  return topic.endsWith('.dlq') || producersOf(topic).includes(service);
}
