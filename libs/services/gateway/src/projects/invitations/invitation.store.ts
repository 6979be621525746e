import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ProjectInvitation } from './invitation.entity.js';

/** The invitations' rows (`project_invitations`) as their tokens use them: only token hashes are stored. */
@Injectable()
export class InvitationStore {
  /** The invitation when it is pending and unexpired, locked until the transaction ends; else null. */
  lockPending(manager: EntityManager, invitationId: string): Promise<ProjectInvitation | null> {
    return manager
      .getRepository(ProjectInvitation)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.id = :invitationId AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()', {
        invitationId,
      })
      .getOne();
  }

  async setTokenHash(manager: EntityManager, invitationId: string, tokenHash: string): Promise<void> {
    await manager.update(ProjectInvitation, { id: invitationId }, { tokenHash });
  }

  /** The pending, unexpired invitation of this token hash, locked until the transaction ends; else null. */
  lockRedeemable(manager: EntityManager, tokenHash: string): Promise<ProjectInvitation | null> {
    return manager
      .getRepository(ProjectInvitation)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.token_hash = :hash AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()', {
        hash: tokenHash,
      })
      .getOne();
  }

  /** Marks the pending, unexpired invitation of this token hash accepted by `userId`; what it grants, or null. */
  async accept(
    manager: EntityManager,
    tokenHash: string,
    userId: string,
  ): Promise<Pick<ProjectInvitation, 'projectId' | 'role'> | null> {
    const [rows] = (await manager.query(
      `UPDATE ${tableName(manager, ProjectInvitation)} SET accepted_at = now(), accepted_by = $2
        WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        RETURNING project_id, role`,
      [tokenHash, userId],
    )) as [{ project_id: string; role: ProjectInvitation['role'] }[], number];
    const row = rows[0];
    return row ? { projectId: row.project_id, role: row.role } : null;
  }
}
