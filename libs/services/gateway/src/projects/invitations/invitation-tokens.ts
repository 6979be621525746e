import { createHash, randomBytes } from 'node:crypto';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ProjectInvitation } from './invitation.entity.js';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** Single-use invitation tokens: only their SHA-256 is stored, on the invitation row. */
@Injectable()
export class InvitationTokens {
  /**
   * A new token for a pending, unexpired invitation (replacing an earlier one), or null when the
   * invitation was accepted, revoked or has expired in the meantime.
   */
  async issue(
    manager: EntityManager,
    invitationId: string,
  ): Promise<{ invitation: ProjectInvitation; token: string } | null> {
    const invitation = await manager
      .getRepository(ProjectInvitation)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.id = :invitationId AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()', {
        invitationId,
      })
      .getOne();
    if (!invitation) return null;
    const token = randomBytes(32).toString('hex');
    await manager.update(ProjectInvitation, { id: invitationId }, { tokenHash: sha256(token) });
    return { invitation, token };
  }

  /**
   * The pending, unexpired invitation of `token`, locked until the caller's transaction ends (a
   * concurrent acceptance waits, then finds it spent), or null for an unknown, used, revoked or
   * expired token. Reading it spends nothing: the caller checks who accepts before `consume`.
   */
  async redeemable(manager: EntityManager, token: string): Promise<ProjectInvitation | null> {
    return manager
      .getRepository(ProjectInvitation)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.token_hash = :hash AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()', {
        hash: sha256(token),
      })
      .getOne();
  }

  /** Marks the invitation of `token` accepted by `userId`; null for an unknown, used, revoked or expired token. */
  async consume(
    manager: EntityManager,
    token: string,
    userId: string,
  ): Promise<Pick<ProjectInvitation, 'projectId' | 'role'> | null> {
    const [rows] = (await manager.query(
      `UPDATE ${tableName(manager, ProjectInvitation)} SET accepted_at = now(), accepted_by = $2
        WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        RETURNING project_id, role`,
      [sha256(token), userId],
    )) as [{ project_id: string; role: ProjectInvitation['role'] }[], number];
    const row = rows[0];
    return row ? { projectId: row.project_id, role: row.role } : null;
  }
}
