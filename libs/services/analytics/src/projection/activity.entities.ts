import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One item of the activity feed, built from one event: `event_id` (the source event's id) is the
 * key, so an event applied twice can never add a second item (nor count twice: the aggregates are
 * fed only by items that were inserted). Pruned after ACTIVITY_RETENTION_DAYS; the aggregates stay.
 */
@Entity({ name: 'activity_items' })
@Index('activity_items_project_time_idx', ['projectId', 'occurredAt', 'eventId'])
@Index('activity_items_project_type_time_idx', ['projectId', 'type', 'occurredAt'])
@Index('activity_items_contact_time_idx', ['projectId', 'contactId', 'occurredAt'], { where: 'contact_id IS NOT NULL' })
@Index('activity_items_campaign_time_idx', ['projectId', 'campaignId', 'occurredAt'], {
  where: 'campaign_id IS NOT NULL',
})
export class ActivityItem {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 40 })
  type!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ name: 'contact_id', type: 'varchar', length: 64, nullable: true })
  contactId!: string | null;

  @Column({ name: 'contact_email', type: 'varchar', length: 320, nullable: true })
  contactEmail!: string | null;

  @Column({ name: 'email_id', type: 'varchar', length: 64, nullable: true })
  emailId!: string | null;

  @Column({ name: 'email_subject', type: 'varchar', length: 998, nullable: true })
  emailSubject!: string | null;

  @Column({ name: 'campaign_id', type: 'varchar', length: 64, nullable: true })
  campaignId!: string | null;

  @Column({ name: 'workflow_id', type: 'varchar', length: 64, nullable: true })
  workflowId!: string | null;

  @Column({ name: 'workflow_name', type: 'varchar', length: 255, nullable: true })
  workflowName!: string | null;

  @Column({ type: 'jsonb', default: {} })
  data!: Record<string, unknown>;
}

/** Feed items per project, UTC hour and type: what `/activity/stats` and `/analytics/timeseries` read. */
@Entity({ name: 'activity_hourly' })
export class ActivityHourly {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ type: 'timestamptz' })
  hour!: Date;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  type!: string;

  @Column({ type: 'bigint', default: 0 })
  count!: string;
}

/** Feed items per project and minute (all types): `/activity/recent-count`. Kept two days. */
@Entity({ name: 'activity_minutely' })
export class ActivityMinutely {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ type: 'timestamptz' })
  minute!: Date;

  @Column({ type: 'bigint', default: 0 })
  count!: string;
}

/** The distinct feed types of a project and how many items each ever had (`/activity/types`). */
@Entity({ name: 'activity_types' })
export class ActivityTypeCount {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  type!: string;

  @Column({ type: 'bigint', default: 0 })
  count!: string;

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt!: Date;
}

/** What analytics knows of one outgoing email: its subject and campaign, and when it was sent and delivered (the prefetch rule). */
@Entity({ name: 'tracked_emails' })
@Index('tracked_emails_contact_sent_idx', ['projectId', 'contactId', 'sentAt'])
@Index('tracked_emails_sent_at_idx', ['sentAt'])
export class TrackedEmail {
  @PrimaryColumn({ name: 'email_id', type: 'varchar', length: 64 })
  emailId!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'contact_id', type: 'varchar', length: 64, nullable: true })
  contactId!: string | null;

  @Column({ name: 'campaign_id', type: 'varchar', length: 64, nullable: true })
  campaignId!: string | null;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  /**
   * When the email was counted as sent in the time series: its first `email.sent` or `email.bounced`
   * consumed (docs/analytics.md, "Sent"). Null until then; set once, so no email counts twice.
   */
  @Column({ name: 'counted_sent_at', type: 'timestamptz', nullable: true })
  countedSentAt!: Date | null;
}

/** `draft`: known from its references only (created, not scheduled yet); `unknown`: known from its emails only. */
export type CampaignState = 'draft' | 'scheduled' | 'sending' | 'sent' | 'cancelled' | 'unknown';

/** Per-campaign counters (`/analytics/campaign-stats`, `/analytics/top-campaigns`) and its schedule (`/activity/upcoming`). */
@Entity({ name: 'campaign_stats' })
@Index('campaign_stats_scheduled_idx', ['projectId', 'scheduledAt'], { where: `state = 'scheduled'` })
export class CampaignStats {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ name: 'campaign_id', type: 'varchar', length: 64 })
  campaignId!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name!: string | null;

  /** Time of the event that gave `name` (a lifecycle event's `at`, a references event's `occurredAt`): the newest wins. */
  @Column({ name: 'name_at', type: 'timestamptz', nullable: true })
  nameAt!: Date | null;

  /**
   * When the campaign was created: the earliest event of it consumed, which is, once consumed, the
   * `resource.references.changed` campaigns publishes in the creating transaction. Null for a
   * campaign known from its emails only. The order of `/analytics/campaign-stats` without an id.
   */
  @Column({ name: 'created_at', type: 'timestamptz', nullable: true })
  createdAt!: Date | null;

  /**
   * When campaigns deleted it (`resource.references.changed` with `deleted: true`): the row stays, so
   * that late events of its emails change nothing visible, and the campaign is no longer answered
   * (listed, by id, top, upcoming). A deletion is final: no later event clears it.
   */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;

  @Column({ type: 'varchar', length: 998, nullable: true })
  subject!: string | null;

  @Column({ type: 'varchar', length: 12, default: 'unknown' })
  state!: CampaignState;

  /** `at` of the lifecycle event that set `state`: an older one arriving late changes nothing. */
  @Column({ name: 'state_at', type: 'timestamptz', nullable: true })
  stateAt!: Date | null;

  @Column({ name: 'scheduled_at', type: 'timestamptz', nullable: true })
  scheduledAt!: Date | null;

  @Column({ name: 'estimated_recipients', type: 'integer', nullable: true })
  estimatedRecipients!: number | null;

  @Column({ type: 'integer', nullable: true })
  recipients!: number | null;

  @Column({ type: 'integer', default: 0 }) sent!: number;
  @Column({ type: 'integer', default: 0 }) delivered!: number;
  @Column({ name: 'opens_total', type: 'integer', default: 0 }) opensTotal!: number;
  @Column({ name: 'opens_unique', type: 'integer', default: 0 }) opensUnique!: number;
  @Column({ name: 'opens_prefetch', type: 'integer', default: 0 }) opensPrefetch!: number;
  @Column({ name: 'clicks_total', type: 'integer', default: 0 }) clicksTotal!: number;
  @Column({ name: 'clicks_unique', type: 'integer', default: 0 }) clicksUnique!: number;
  @Column({ type: 'integer', default: 0 }) bounces!: number;
  @Column({ type: 'integer', default: 0 }) complaints!: number;
  @Column({ type: 'integer', default: 0 }) failed!: number;
  @Column({ type: 'integer', default: 0 }) unsubscribes!: number;
}

/**
 * One recipient's first open / click / unsubscribe of a campaign, and whether it was sent to (an
 * email.sent, or an email.bounced the relay answered at once): what makes the unique counts unique.
 */
@Entity({ name: 'campaign_engagements' })
export class CampaignEngagement {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ name: 'campaign_id', type: 'varchar', length: 64 })
  campaignId!: string;

  /** The contact id, or the address when the event names no contact. */
  @PrimaryColumn({ type: 'varchar', length: 320 })
  recipient!: string;

  @PrimaryColumn({ type: 'varchar', length: 12 })
  kind!: 'open' | 'click' | 'unsubscribe' | 'sent';
}

/** The latest known state of each workflow execution: the waiting ones are `/activity/upcoming`. */
@Entity({ name: 'workflow_executions' })
@Index('workflow_executions_waiting_idx', ['projectId', 'dueAt'], { where: `status = 'WAITING'` })
@Index('workflow_executions_updated_idx', ['stateAt'])
export class WorkflowExecutionState {
  @PrimaryColumn({ name: 'execution_id', type: 'varchar', length: 64 })
  executionId!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'workflow_id', type: 'varchar', length: 64 })
  workflowId!: string;

  @Column({ name: 'workflow_name', type: 'varchar', length: 255 })
  workflowName!: string;

  @Column({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  @Column({ type: 'varchar', length: 320, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 12 })
  status!: string;

  @Column({ name: 'step_id', type: 'varchar', length: 64, nullable: true })
  stepId!: string | null;

  @Column({ name: 'step_type', type: 'varchar', length: 20, nullable: true })
  stepType!: string | null;

  @Column({ name: 'step_name', type: 'varchar', length: 255, nullable: true })
  stepName!: string | null;

  @Column({ name: 'due_at', type: 'timestamptz', nullable: true })
  dueAt!: Date | null;

  /** `at` of the event that set this state: an older one arriving late changes nothing. */
  @Column({ name: 'state_at', type: 'timestamptz' })
  stateAt!: Date;
}

/** The retention job chain's position (one row): only the link carrying the current number acts. */
@Entity({ name: 'retention_state' })
export class RetentionState {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'integer', default: 0 })
  seq!: number;
}

export const projectionEntities = [
  ActivityItem,
  ActivityHourly,
  ActivityMinutely,
  ActivityTypeCount,
  TrackedEmail,
  CampaignStats,
  CampaignEngagement,
  WorkflowExecutionState,
];
