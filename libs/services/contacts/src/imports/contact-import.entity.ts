import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type ImportStatus = 'queued' | 'completed' | 'failed';

export interface ImportRowError {
  row: number;
  email: string;
  reason: string;
}

/**
 * A CSV import: the uploaded file (kept until the import completes, so a restart can resume it),
 * its counts, per-row errors, and a checkpoint of the rows already applied.
 */
@Entity({ name: 'contact_imports' })
@Index('contact_imports_project_idx', ['projectId', 'createdAt'])
export class ContactImport {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 12, default: 'queued' })
  status!: ImportStatus;

  @Column({ type: 'bytea', nullable: true })
  file!: Buffer | null;

  @Column({ name: 'file_name', type: 'varchar', length: 255, nullable: true })
  fileName!: string | null;

  @Column({ name: 'total_rows', type: 'int' })
  totalRows!: number;

  /** Data rows already applied (checkpoint). */
  @Column({ name: 'processed_rows', type: 'int', default: 0 })
  processedRows!: number;

  @Column({ type: 'int', default: 0 })
  imported!: number;

  @Column({ type: 'int', default: 0 })
  updated!: number;

  @Column({ type: 'int', default: 0 })
  skipped!: number;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  errors!: ImportRowError[];

  @Column({ type: 'text', nullable: true })
  failure!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
