import type { WireGroup } from '@herald/filters';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn, VersionColumn } from 'typeorm';

export type SegmentType = 'DYNAMIC' | 'STATIC';

/** A segment: dynamic (a filter over the read model) or static (explicit members). */
@Entity({ name: 'segments' })
@Index('segments_project_created_idx', ['projectId', 'createdAt', 'id'])
export class Segment {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description!: string | null;

  @Column({ type: 'varchar', length: 10 })
  type!: SegmentType;

  /** The filter as sent (`toWire` of the parsed filter); null for a static segment. */
  @Column({ type: 'jsonb', nullable: true })
  filters!: WireGroup | null;

  @Column({ name: 'track_membership', type: 'boolean', default: false })
  trackMembership!: boolean;

  /**
   * Whether `segment_memberships` holds this segment's members, complete: a static segment always; a
   * dynamic one once its first compute ended (it is set back to false while a changed filter is
   * computed). Until then its members are read from its filter. Every dynamic segment's stored
   * members are kept by the real-time path and the sweep; `trackMembership` says whether their
   * entries and exits are published.
   */
  @Column({ type: 'boolean', default: false })
  materialized!: boolean;

  /**
   * The instant a dynamic segment's stored members were last evaluated whole (the `now` of its last
   * compute or sweep). Between two, changes of contacts move them in real time; time alone moves
   * them only at the next sweep.
   */
  @Column({ name: 'members_as_of', type: 'timestamptz', nullable: true })
  membersAsOf!: Date | null;

  /** Cached count: set by create, compute and refresh, and kept by membership writes of stored segments. */
  @Column({ name: 'member_count', type: 'integer', default: 0 })
  memberCount!: number;

  @Column({ name: 'counted_at', type: 'timestamptz', nullable: true })
  countedAt!: Date | null;

  /** Grows with every change: the revision of the usage references it publishes. */
  @VersionColumn()
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * Stored membership: the members of a static segment, and the current members of a dynamic one
 * (what entry and exit are measured against, and what counts and pages read). `segment.<id>`
 * conditions read it for a materialized segment.
 */
@Entity({ name: 'segment_memberships' })
@Index('segment_memberships_contact_idx', ['projectId', 'contactId'])
export class SegmentMembership {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ name: 'segment_id', type: 'varchar', length: 40 })
  segmentId!: string;

  @PrimaryColumn({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  @CreateDateColumn({ name: 'entered_at', type: 'timestamptz' })
  enteredAt!: Date;
}

/** The periodic sweep's chain position (one row): only the link carrying the current number acts. */
@Entity({ name: 'sweep_state' })
export class SweepState {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'integer', default: 0 })
  seq!: number;
}
