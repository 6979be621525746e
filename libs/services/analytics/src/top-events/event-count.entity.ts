import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** How often each custom event name was tracked in a project (built from `event.tracked`). */
@Entity({ name: 'event_counts' })
@Index('event_counts_project_count_idx', ['projectId', 'count'])
export class EventCount {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'bigint', default: 0 })
  count!: string;

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt!: Date;
}

/** Tracked events per project, UTC day and name: `top-events` over a range reads these, never the feed. */
@Entity({ name: 'event_counts_daily' })
export class EventCountDaily {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ type: 'date' })
  day!: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'bigint', default: 0 })
  count!: string;
}
