import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type JobState = 'queued' | 'running' | 'completed' | 'failed';

/**
 * A durable background job in the service's own schema. A worker holds a lease on a running job
 * and renews it; a job whose lease ran out (its worker died) is claimed again while it has attempts
 * left (every claim counts one). `failed` is the dead letter: attempts exhausted, the last error
 * kept, never claimed again until an operator's `jobs retry`.
 */
@Entity({ name: 'jobs' })
@Index('jobs_claim_idx', ['queue', 'runAfter'], { where: `"state" = 'queued'` })
@Index('jobs_lease_idx', ['lockedUntil'], { where: `"state" = 'running'` })
export class Job {
  @PrimaryColumn({ type: 'varchar', length: 60 })
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  queue!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  payload!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 12, default: 'queued' })
  state!: JobState;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ name: 'max_attempts', type: 'int', default: 5 })
  maxAttempts!: number;

  @Column({ name: 'run_after', type: 'timestamptz', default: () => 'now()' })
  runAfter!: Date;

  @Column({ name: 'locked_by', type: 'varchar', length: 100, nullable: true })
  lockedBy!: string | null;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
