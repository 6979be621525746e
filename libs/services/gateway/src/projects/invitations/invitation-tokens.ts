import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ProjectInvitation } from './invitation.entity.js';
import { InvitationStore } from './invitation.store.js';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** Single-use invitation tokens: only their SHA-256 is stored, on the invitation row. */
@Injectable()
export class InvitationTokens {
  constructor(private readonly store: InvitationStore) {}

  /**
   * A new token for a pending, unexpired invitation (replacing an earlier one), or null when the
   * invitation was accepted, revoked or has expired in the meantime.
   */
  async issue(
    manager: EntityManager,
    invitationId: string,
  ): Promise<{ invitation: ProjectInvitation; token: string } | null> {
    const invitation = await this.store.lockPending(manager, invitationId);
    if (!invitation) return null;
    const token = randomBytes(32).toString('hex');
    await this.store.setTokenHash(manager, invitationId, sha256(token));
    return { invitation, token };
  }

  /**
   * The pending, unexpired invitation of `token`, locked until the caller's transaction ends (a
   * concurrent acceptance waits, then finds it spent), or null for an unknown, used, revoked or
   * expired token. Reading it spends nothing: the caller checks who accepts before `consume`.
   */
  async redeemable(manager: EntityManager, token: string): Promise<ProjectInvitation | null> {
    return this.store.lockRedeemable(manager, sha256(token));
  }

  /** Marks the invitation of `token` accepted by `userId`; null for an unknown, used, revoked or expired token. */
  async consume(
    manager: EntityManager,
    token: string,
    userId: string,
  ): Promise<Pick<ProjectInvitation, 'projectId' | 'role'> | null> {
    return this.store.accept(manager, sha256(token), userId);
  }
}
