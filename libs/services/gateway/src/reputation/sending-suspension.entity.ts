import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A suspension of a project's sending: why, the rates that caused it, and who lifted it when. */
@Entity({ name: 'sending_suspensions' })
@Index('sending_suspensions_active_key', ['projectId'], { unique: true, where: '"lifted_at" IS NULL' })
@Index('sending_suspensions_project_idx', ['projectId', 'suspendedAt'])
export class SendingSuspension {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  /** `bounce_rate` or `complaint_rate`. */
  @Column({ type: 'varchar', length: 30 })
  reason!: string;

  @Column({ name: 'bounce_rate', type: 'double precision' })
  bounceRate!: number;

  @Column({ name: 'complaint_rate', type: 'double precision' })
  complaintRate!: number;

  /** Sends in the window the rates were measured over. */
  @Column({ type: 'integer' })
  sends!: number;

  @Column({ name: 'suspended_at', type: 'timestamptz' })
  suspendedAt!: Date;

  @Column({ name: 'lifted_at', type: 'timestamptz', nullable: true })
  liftedAt!: Date | null;

  @Column({ name: 'lifted_by', type: 'varchar', length: 40, nullable: true })
  liftedBy!: string | null;
}
