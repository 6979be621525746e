import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** One named event tracked for a contact (`POST /v1/track`). */
@Entity({ name: 'tracked_events' })
@Index('tracked_events_project_created_idx', ['projectId', 'createdAt', 'id'])
@Index('tracked_events_project_name_idx', ['projectId', 'name'])
@Index('tracked_events_contact_idx', ['contactId', 'createdAt'])
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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
