import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A custom field deleted while its background job is still removing it from the contacts (a
 * tombstone). `seq` orders deletions: a contact row whose `deletions_applied` is below a tombstone's
 * `seq` may still hold the stale value, which every read leaves out (`live_data`); a row written
 * since has had it removed, and a value it holds for the path was written after the delete. The
 * job deletes its tombstone when it is done.
 */
@Entity({ name: 'contact_field_deletions' })
@Index('contact_field_deletions_project_seq_idx', ['projectId', 'seq'])
export class ContactFieldDeletion {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  seq!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  /** Dotted path including the `data.` prefix. */
  @Column({ type: 'varchar', length: 300 })
  path!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
