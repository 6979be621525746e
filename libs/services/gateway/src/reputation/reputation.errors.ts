import { DomainError, forbiddenError } from '@herald/core';

/** Stable codes of sender reputation (docs/errors.md, docs/billing.md); never rename one. */
export const ReputationErrorCode = {
  SendingSuspended: 'PROJECT_SENDING_SUSPENDED',
  NotSuspended: 'PROJECT_NOT_SUSPENDED',
} as const;

export const ReputationErrors = {
  /** 403: the project's sending is suspended (sender reputation). */
  sendingSuspended: (reason: string, at: Date) =>
    forbiddenError(
      ReputationErrorCode.SendingSuspended,
      `Sending is suspended for this project since ${at.toISOString()}: its ${reason === 'complaint_rate' ? 'complaint' : 'bounce'} rate passed the threshold`,
      'Clean the list (remove bounced and complaining addresses), then an OWNER lifts the suspension: POST /projects/:id/security/lift.',
    ),
  notSuspended: () =>
    new DomainError('conflict', ReputationErrorCode.NotSuspended, 'Sending is not suspended for this project'),
};
