import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One entry of a contact's timeline: an event tracked through `POST /v1/track` (`system` false),
 * or a system event projected from Herald's own topics (`system` true: `email.*`,
 * `contact.subscribed`, `contact.unsubscribed`), which keeps the id of the event it came from.
 * The timeline is the contact's: deleting the contact deletes it (`ContactStore.delete`); the events
 * feature tracks, projects and reads it (`TrackedEventsStore`).
 */
@Entity({ name: 'tracked_events' })
@Index('tracked_events_project_created_idx', ['projectId', 'createdAt', 'id'])
@Index('tracked_events_project_name_idx', ['projectId', 'name'])
@Index('tracked_events_contact_idx', ['contactId', 'createdAt'])
// a replayed topic (past the inbox, or a consumer's inbox wiped) cannot add an entry twice
@Index('tracked_events_source_event_key', ['sourceEventId'], { unique: true })
export class TrackedEvent {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'contact_id', type: 'varchar', length: 40 })
  contactId!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  data!: Record<string, unknown>;

  /** Recorded by Herald itself (never counted as a custom event, never deleted by name). */
  @Column({ type: 'boolean', default: false })
  system!: boolean;

  /** `eventId` of the envelope a system event was projected from. */
  @Column({ name: 'source_event_id', type: 'uuid', nullable: true })
  sourceEventId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
