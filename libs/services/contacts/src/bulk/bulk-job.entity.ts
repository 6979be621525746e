import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type BulkAction = 'subscribe' | 'unsubscribe' | 'delete';
export type BulkStatus = 'queued' | 'completed' | 'failed';

/** A queued bulk subscribe, unsubscribe or delete of up to 1000 contacts, and its outcome. */
@Entity({ name: 'bulk_jobs' })
export class BulkJob {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 12 })
  action!: BulkAction;

  @Column({ name: 'contact_ids', type: 'jsonb' })
  contactIds!: string[];

  @Column({ type: 'varchar', length: 12, default: 'queued' })
  status!: BulkStatus;

  @Column({ type: 'int', default: 0 })
  succeeded!: number;

  /** Already in the requested state. */
  @Column({ type: 'int', default: 0 })
  unchanged!: number;

  @Column({ type: 'int', default: 0 })
  failed!: number;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  errors!: { contactId: string; reason: string }[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
