import type { ProjectRole } from '@herald/contracts';
import { conflictError, DomainError, forbiddenError, notFoundError } from '@herald/core';

/** Stable codes of projects and their members (docs/errors.md); integrators match on them, so never rename one. */
export const ProjectErrorCode = {
  NotFound: 'PROJECT_NOT_FOUND',
  InsufficientRole: 'INSUFFICIENT_ROLE',
  MemberNotFound: 'MEMBER_NOT_FOUND',
  MemberAlreadyExists: 'MEMBER_ALREADY_EXISTS',
  LastOwner: 'LAST_OWNER',
  UserNotFound: 'USER_NOT_FOUND',
} as const;

export const ProjectErrors = {
  /** 404: no such project, or the caller is not a member (a non-member learns nothing about it). */
  notFound: (projectId: string) => notFoundError('Project', projectId, ProjectErrorCode.NotFound),
  /** 403: the caller's role in the project does not allow this (`why` says which role it needs). */
  insufficientRole: (why: string) => forbiddenError(ProjectErrorCode.InsufficientRole, why),
  /** 404: the user is not a member of the project. */
  memberNotFound: (userId: string) => notFoundError('Member', userId, ProjectErrorCode.MemberNotFound),
  /** 409: the user is already a member. */
  memberAlreadyExists: (email: string) =>
    conflictError(ProjectErrorCode.MemberAlreadyExists, `${email} is already a member of this project`),
  /** 409: the change would leave the project without an OWNER. */
  lastOwner: () =>
    conflictError(ProjectErrorCode.LastOwner, 'A project needs at least one OWNER', 'Make another member OWNER first.'),
  /** 404: adding a member by an email no Herald account has. */
  userNotFound: () =>
    new DomainError('not_found', ProjectErrorCode.UserNotFound, 'No Herald account has this email', {
      suggestion: 'Ask them to sign up first, then add them to the project.',
    }),
  /** 403 INSUFFICIENT_ROLE for an action limited to `roles`. */
  needsRole: (roles: readonly ProjectRole[], actual: ProjectRole) =>
    ProjectErrors.insufficientRole(`This needs the ${roles.join(' or ')} role in the project; you are ${actual}`),
};
