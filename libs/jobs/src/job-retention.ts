import type { RetentionSettings } from '@herald/core';
import type { RetentionTask } from '@herald/persistence';
import type { DataSource } from 'typeorm';
import { JobRetentionStore } from './job-retention.store.js';

/** Jobs that ran to their end, kept `jobsCompletedMs`. */
export const COMPLETED_STATES = ['completed'] as const;
/** Jobs dead-lettered (their attempts spent, with their last error), kept `jobsFailedMs` for the operator to read or retry. */
export const FAILED_STATES = ['failed'] as const;

const store = new JobRetentionStore();

/**
 * What a service's job queue deletes past retention: completed jobs after `jobsCompletedMs`, failed
 * ones after `jobsFailedMs`. Queued and running jobs are never touched.
 */
export function jobRetentionTasks(db: DataSource, retention: RetentionSettings): RetentionTask[] {
  return [
    {
      table: 'jobs',
      what: 'completed',
      pruneBatch: (limit) => store.pruneFinished(db, COMPLETED_STATES, retention.jobsCompletedMs, limit),
    },
    {
      table: 'jobs',
      what: 'failed',
      pruneBatch: (limit) => store.pruneFinished(db, FAILED_STATES, retention.jobsFailedMs, limit),
    },
  ];
}
