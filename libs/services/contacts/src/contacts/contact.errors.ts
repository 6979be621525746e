import { conflictError, invalidInput, notFoundError, type FieldProblem } from '@herald/core';

/** Stable codes of the contacts feature (docs/errors.md); integrators match on them, so never rename one. */
export const ContactErrorCode = {
  NotFound: 'CONTACT_NOT_FOUND',
  EmailTaken: 'CONTACT_EMAIL_TAKEN',
} as const;

/** The errors contacts' use cases throw; the HTTP edge maps each kind to its status. */
export const ContactErrors = {
  /** 404: no contact with this id in the project. */
  notFound: (contactId: string) => notFoundError('Contact', contactId, ContactErrorCode.NotFound),
  /** 409: a PATCH gives the contact an email another contact of the project has. */
  emailTaken: (email: string) =>
    conflictError(
      ContactErrorCode.EmailTaken,
      `Another contact already has the email ${email}`,
      'Update or delete the other contact first, or upsert by email (POST /contacts).',
    ),
  /**
   * 422 VALIDATION_ERROR naming the path: the contact's data would exceed MAX_DATA_BYTES as JSON (field
   * `data`, `too_big`), break a limit of DATA_LIMITS, or hold text PostgreSQL cannot store (`storedDataProblem`).
   */
  invalidData: (problem: FieldProblem) => invalidInput([problem]),
};
