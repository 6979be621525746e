import type { ProjectRole } from '@herald/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { User } from '../accounts/user.entity.js';
import { GATEWAY } from '../consumer.js';
import { Membership } from './membership.entity.js';
import { MANAGERS, requireMembership } from './project-access.js';
import type { MemberView } from './project.dto.js';
import { ProjectErrors } from './project.errors.js';

/**
 * Team members (adding one: InvitationsService). Any member sees the list; OWNER and ADMIN manage it; only an OWNER grants,
 * changes or removes the OWNER role; the last OWNER can be neither demoted nor removed; anyone may
 * leave (unless they are the last OWNER).
 */
@Injectable()
export class MembersService {
  constructor(@InjectDataSource(GATEWAY) private readonly db: DataSource) {}

  async list(actorId: string, projectId: string): Promise<MemberView[]> {
    await requireMembership(this.db.manager, actorId, projectId);
    const rows: { user_id: string; email: string; name: string | null; role: ProjectRole; created_at: Date }[] =
      await this.db
        .createQueryBuilder(Membership, 'm')
        .innerJoin(User, 'u', 'u.id = m.user_id')
        .select([
          'm.user_id AS user_id',
          'u.email AS email',
          'u.name AS name',
          'm.role AS role',
          'm.created_at AS created_at',
        ])
        .where('m.project_id = :projectId', { projectId })
        .orderBy('m.created_at', 'ASC')
        .getRawMany();
    return rows.map((r) => ({
      userId: r.user_id,
      email: r.email,
      name: r.name,
      role: r.role,
      joinedAt: new Date(r.created_at).toISOString(),
    }));
  }

  async changeRole(actorId: string, projectId: string, userId: string, role: ProjectRole): Promise<MemberView> {
    return this.db.transaction(async (m) => {
      const actor = await requireMembership(m, actorId, projectId, MANAGERS);
      const target = await this.lockedMember(m, projectId, userId);
      if ((role === 'OWNER' || target.role === 'OWNER') && actor.role !== 'OWNER')
        throw ProjectErrors.insufficientRole('Only an OWNER can grant or change the OWNER role');
      if (target.role === 'OWNER' && role !== 'OWNER') await this.assertAnotherOwner(m, projectId, userId);
      await m.update(Membership, { projectId, userId }, { role });
      const user = await m.findOneByOrFail(User, { id: userId });
      return { userId, email: user.email, name: user.name, role, joinedAt: target.createdAt.toISOString() };
    });
  }

  async remove(actorId: string, projectId: string, userId: string): Promise<void> {
    await this.db.transaction(async (m) => {
      const actor = await requireMembership(m, actorId, projectId);
      const target = await this.lockedMember(m, projectId, userId);
      const leaving = actorId === userId;
      if (!leaving && !MANAGERS.includes(actor.role))
        throw ProjectErrors.insufficientRole('Only an OWNER or ADMIN can remove members');
      if (!leaving && target.role === 'OWNER' && actor.role !== 'OWNER')
        throw ProjectErrors.insufficientRole('Only an OWNER can remove an OWNER');
      if (target.role === 'OWNER') await this.assertAnotherOwner(m, projectId, userId);
      await m.delete(Membership, { projectId, userId });
    });
  }

  /** Locks the project's memberships so two requests cannot both remove "the other" owner. */
  private async lockedMember(m: EntityManager, projectId: string, userId: string): Promise<Membership> {
    const all = await m
      .getRepository(Membership)
      .createQueryBuilder('m')
      .setLock('pessimistic_write')
      .where('m.project_id = :projectId', { projectId })
      .getMany();
    const target = all.find((x) => x.userId === userId);
    if (!target) throw ProjectErrors.memberNotFound(userId);
    return target;
  }

  private async assertAnotherOwner(m: EntityManager, projectId: string, userId: string): Promise<void> {
    const owners = await m.countBy(Membership, { projectId, role: 'OWNER' });
    const isOwner = await m.countBy(Membership, { projectId, userId, role: 'OWNER' });
    if (owners - isOwner < 1) throw ProjectErrors.lastOwner();
  }
}
