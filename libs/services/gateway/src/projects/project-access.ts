import type { ProjectRole } from '@herald/contracts';
import { forbidden, notFound } from '@herald/http';
import type { EntityManager } from 'typeorm';
import { Membership } from './membership.entity.js';

export const MANAGERS: readonly ProjectRole[] = ['OWNER', 'ADMIN'];

/**
 * The caller's membership of a project, or 404 (a non-member learns nothing about the project);
 * with `roles`, 403 unless the caller holds one of them.
 */
export async function requireMembership(manager: EntityManager, userId: string, projectId: string, roles?: readonly ProjectRole[]): Promise<Membership> {
  const membership = await manager.findOneBy(Membership, { projectId, userId });
  if (!membership) throw notFound('Project', projectId);
  if (roles && !roles.includes(membership.role)) {
    throw forbidden(`This needs the ${roles.join(' or ')} role in the project; you are ${membership.role}`);
  }
  return membership;
}
