import type { ProjectRole } from '@herald/contracts';
import type { EntityManager } from 'typeorm';
import { Membership } from './membership.entity.js';
import { ProjectErrors } from './project.errors.js';

export const MANAGERS: readonly ProjectRole[] = ['OWNER', 'ADMIN'];

/**
 * The caller's membership of a project, or PROJECT_NOT_FOUND (a non-member learns nothing about the
 * project); with `roles`, INSUFFICIENT_ROLE unless the caller holds one of them.
 */
export async function requireMembership(
  manager: EntityManager,
  userId: string,
  projectId: string,
  roles?: readonly ProjectRole[],
): Promise<Membership> {
  const membership = await manager.findOneBy(Membership, { projectId, userId });
  if (!membership) throw ProjectErrors.notFound(projectId);
  if (roles && !roles.includes(membership.role)) throw ProjectErrors.needsRole(roles, membership.role);
  return membership;
}
