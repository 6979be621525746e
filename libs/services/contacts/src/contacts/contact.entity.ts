import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A person a project can email. `email` is stored normalised (trimmed, lower case). */
@Entity({ name: 'contacts' })
@Index('contacts_project_email_key', ['projectId', 'email'], { unique: true })
@Index('contacts_project_created_idx', ['projectId', 'createdAt', 'id'])
// GIN trigram index for `search` (substring of email); written by hand in its migration because
// TypeORM cannot express an operator class.
@Index('contacts_email_trgm_idx', { synchronize: false })
export class Contact {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'boolean', default: true })
  subscribed!: boolean;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  data!: Record<string, unknown>;

  /**
   * The field deletions (`contact_field_deletions.seq`) this row's `data` has had applied: a
   * tombstone above it may name a stale key, which reads leave out (see `CONTACT_COLUMNS`).
   */
  @Column({ name: 'deletions_applied', type: 'bigint', default: 0 })
  deletionsApplied!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
