import { conflictError, forbiddenError, notFoundError } from '@herald/core';

/** Stable codes of sender domains (docs/errors.md); integrators match on them, so never rename one. */
export const SenderDomainErrorCode = {
  NotFound: 'DOMAIN_NOT_FOUND',
  AlreadyExists: 'DOMAIN_ALREADY_EXISTS',
  /** The generic 403: the caller's credentials do not reach another project's domains. */
  OtherProject: 'FORBIDDEN',
} as const;

export const SenderDomainErrors = {
  /** 404: no domain with this id in the project. */
  notFound: (domainId: string) => notFoundError('Domain', domainId, SenderDomainErrorCode.NotFound),
  /** 409: the project already has this domain name. */
  alreadyExists: (name: string) =>
    conflictError(
      SenderDomainErrorCode.AlreadyExists,
      `The project already has the domain ${name}`,
      'Verify the existing domain (GET /domains/:id/verify) or delete it first.',
    ),
  /** 403: listing the domains of a project other than the caller's. */
  otherProject: () =>
    forbiddenError(SenderDomainErrorCode.OtherProject, 'You can only list the domains of your own project'),
};
