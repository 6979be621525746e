import { conflictError, DomainError, forbiddenError } from '@herald/core';
import type { AccountTokenPurpose } from './account-token.entity.js';

/** Stable codes of dashboard accounts (docs/errors.md); integrators match on them, so never rename one. */
export const AccountErrorCode = {
  SignupsDisabled: 'SIGNUPS_DISABLED',
  EmailAlreadyRegistered: 'EMAIL_ALREADY_REGISTERED',
  InvalidCredentials: 'INVALID_CREDENTIALS',
  InvalidToken: 'INVALID_TOKEN',
  /** The same code as the API's rate limit: a client handles both alike. */
  LoginThrottled: 'RATE_LIMIT_EXCEEDED',
} as const;

export const AccountErrors = {
  /** 403: DISABLE_SIGNUPS is set. */
  signupsDisabled: () =>
    forbiddenError(
      AccountErrorCode.SignupsDisabled,
      'Sign-ups are disabled on this Herald instance',
      'Ask an administrator of this instance to invite you to a project.',
    ),
  /** 409: an account with this email exists. */
  emailAlreadyRegistered: () =>
    conflictError(
      AccountErrorCode.EmailAlreadyRegistered,
      'An account with this email already exists',
      'Log in, or reset your password.',
    ),
  /** 401: unknown email or wrong password (the same answer for both). */
  invalidCredentials: () =>
    new DomainError('unauthenticated', AccountErrorCode.InvalidCredentials, 'Email or password is incorrect', {
      suggestion: 'Check both, or reset your password.',
    }),
  /** 400: a verification or reset token that is unknown, already used or expired. */
  invalidToken: (purpose: AccountTokenPurpose) =>
    new DomainError('bad_request', AccountErrorCode.InvalidToken, 'This link is invalid, already used or expired', {
      suggestion:
        purpose === 'reset-password' ? 'Request a new password reset email.' : 'Request a new verification email.',
    }),
  /** 429 with Retry-After: too many failed logins for the account or the address. */
  loginThrottled: (retryAfterSeconds: number) =>
    new DomainError('limited', AccountErrorCode.LoginThrottled, 'Too many failed login attempts; try again later', {
      retryAfterSeconds,
      suggestion: `Wait ${retryAfterSeconds} seconds, or reset your password.`,
    }),
  /** 429 with Retry-After: too many password-reset or verification emails asked for the account or from the address. */
  emailThrottled: (retryAfterSeconds: number) =>
    new DomainError('limited', AccountErrorCode.LoginThrottled, 'Too many account emails requested; try again later', {
      retryAfterSeconds,
      suggestion: `Wait ${retryAfterSeconds} seconds, and check your inbox and spam folder for the earlier email.`,
    }),
};
