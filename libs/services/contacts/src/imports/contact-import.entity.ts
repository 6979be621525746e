import type { ListVerdict } from '@herald/verification';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type ImportStatus = 'queued' | 'completed' | 'failed';

/** A row the import reports: an error (the row was not imported) or, when verifying, a warning (it was). */
export interface ImportRowError {
  /** Row number in the file, the header being row 1. */
  row: number;
  email: string;
  /** invalid_email, invalid_text, data_too_large, or a verification verdict (docs/contacts.md). */
  reason: string;
  /** The corrected address, when verification found the domain misspelt. */
  suggestion?: string;
}

/** Rows with each verification verdict, and the rows verified (`checked`). */
export type VerdictCounts = Partial<Record<ListVerdict | 'checked', number>>;

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

  /** `?verify=true`: every row's address goes through the /v1/verify checks. */
  @Column({ type: 'boolean', default: false })
  verify!: boolean;

  /** `?skipInvalid=true` (with verify): rows with an invalid verdict are not imported. */
  @Column({ name: 'skip_invalid', type: 'boolean', default: false })
  skipInvalid!: boolean;

  /** Verification verdicts of rows that were imported (the first ones, as errors). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  warnings!: ImportRowError[];

  @Column({ name: 'verdict_counts', type: 'jsonb', default: () => "'{}'" })
  verdictCounts!: VerdictCounts;

  @Column({ type: 'text', nullable: true })
  failure!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
