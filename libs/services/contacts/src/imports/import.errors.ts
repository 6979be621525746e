import { DomainError, invalidInput, notFoundError } from '@herald/core';

/** Stable codes of CSV imports (docs/errors.md); a refused file is the spec's VALIDATION_ERROR on `file`. */
export const ImportErrorCode = {
  JobNotFound: 'IMPORT_JOB_NOT_FOUND',
  FileTooLarge: 'PAYLOAD_TOO_LARGE',
} as const;

export const ImportErrors = {
  /** 404: no import job with this id in the project. */
  jobNotFound: (jobId: string) => notFoundError('Import job', jobId, ImportErrorCode.JobNotFound),
  /** 413: the file is over the limit; nothing was queued. */
  fileTooLarge: (maxBytes: number) =>
    new DomainError(
      'too_large',
      ImportErrorCode.FileTooLarge,
      `The CSV file is larger than ${maxBytes / 1024 / 1024} MB; nothing was imported`,
      { suggestion: `Split the file into parts of at most ${maxBytes / 1024 / 1024} MB.` },
    ),
  /** 422 VALIDATION_ERROR on `file`: not UTF-8, not CSV, empty, or without an email column. */
  invalidFile: (message: string) => invalidInput([{ field: 'file', message, code: 'invalid' }], message),
};
