import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type ContactFieldType = 'string' | 'number' | 'boolean' | 'date';

/**
 * A custom data field of a project (`data.plan`, `data.profile.tier`) with the type inferred from
 * the first non-null value seen; the type then stays fixed for the project.
 */
@Entity({ name: 'contact_fields' })
export class ContactField {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  /** Dotted path including the `data.` prefix. */
  @PrimaryColumn({ type: 'varchar', length: 300 })
  path!: string;

  @Column({ type: 'varchar', length: 10 })
  type!: ContactFieldType;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
