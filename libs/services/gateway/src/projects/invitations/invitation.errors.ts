import { DomainError, forbiddenError } from '@herald/core';

/** Stable codes of project invitations (docs/errors.md); integrators match on them, so never rename one. */
export const InvitationErrorCode = {
  NotFound: 'INVITATION_NOT_FOUND',
  InvalidToken: 'INVALID_INVITATION_TOKEN',
  EmailMismatch: 'INVITATION_EMAIL_MISMATCH',
  EmailNotVerified: 'EMAIL_NOT_VERIFIED',
} as const;

/**
 * An address shown without giving it away: the first character of the local part and of the domain,
 * and the top-level domain (`invitee@elsewhere.test` → `i***@e***.test`). Enough for someone with
 * several addresses to know which one was invited; little to anyone else holding the link.
 */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf('@');
  const local = Array.from(email.slice(0, at));
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = Array.from(dot > 0 ? domain.slice(0, dot) : domain);
  return `${local[0] ?? ''}***@${host[0] ?? ''}***${dot > 0 ? domain.slice(dot) : ''}`;
}

export const InvitationErrors = {
  /** 404: revoking an invitation that is not pending in the project. */
  notFound: (id: string) =>
    new DomainError('not_found', InvitationErrorCode.NotFound, `Invitation ${id} does not exist`),
  /** 400: the token is unknown, used, revoked or expired (one answer: it tells nothing about which). */
  invalidToken: () =>
    new DomainError(
      'bad_request',
      InvitationErrorCode.InvalidToken,
      'This invitation link is not valid or has expired',
      {
        suggestion: 'Ask a project OWNER or ADMIN to invite you again.',
      },
    ),
  /** 403: the account (or the sign-up) is not the invited address; the address is shown masked. */
  emailMismatch: (invitedEmail: string) =>
    forbiddenError(
      InvitationErrorCode.EmailMismatch,
      `This invitation was sent to another address (${maskedAddress(invitedEmail)})`,
      'Log in with the account of the invited address, or sign up with that address and this link, then accept.',
    ),
  /** 403: the account has the invited address but has not verified it yet. */
  emailNotVerified: () =>
    forbiddenError(
      InvitationErrorCode.EmailNotVerified,
      'Verify your email address before accepting this invitation',
      'Open the link of the verification email (POST /auth/request-verification sends a new one), then accept again.',
    ),
};
