import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** What happened to an email, by the name of its `email.*` topic without the prefix. */
export type EmailEventType = 'sent' | 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained' | 'failed';

/**
 * One lifecycle event of an email, written with the `email.*` event it publishes (same
 * transaction): the history `GET /emails/:id` shows.
 */
@Entity({ name: 'email_events' })
@Index('email_events_email_occurred', ['emailId', 'occurredAt'])
export class EmailEvent {
  /** The published event's id: a re-recorded event is the same row. */
  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 64 })
  eventId!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'email_id', type: 'varchar', length: 40 })
  emailId!: string;

  @Column({ type: 'varchar', length: 16 })
  type!: EmailEventType;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  /** What the event adds: bounceType, reason, url, messageId. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  data!: Record<string, string>;
}
