import { notFoundError } from '@herald/core';

/** Stable codes of bulk contact jobs (docs/errors.md). */
export const BulkErrorCode = {
  JobNotFound: 'BULK_JOB_NOT_FOUND',
} as const;

export const BulkErrors = {
  /** 404: no bulk job with this id in the project. */
  jobNotFound: (jobId: string) => notFoundError('Bulk job', jobId, BulkErrorCode.JobNotFound),
};
