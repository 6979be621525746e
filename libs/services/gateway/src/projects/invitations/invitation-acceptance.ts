import { conflictError } from '@herald/core';
import type { ProjectRole } from '@herald/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { User } from '../../accounts/user.entity.js';
import { Membership } from '../membership.entity.js';
import { ProjectErrorCode } from '../project.errors.js';
import { InvitationErrors } from './invitation.errors.js';
import { InvitationTokens } from './invitation-tokens.js';
import { assertInvitee } from './invitee.js';

export interface AcceptedInvitation {
  projectId: string;
  role: ProjectRole;
}

/**
 * Accepting an invitation, in the caller's transaction: the account must be the invited address,
 * verified (`assertInvitee`); only then is the token spent and the membership created. A refused
 * attempt spends nothing, so the rightful invitee can still use the link. Used by
 * `POST /users/@me/invitations/accept` and by a sign-up with an `invitationToken`.
 */
@Injectable()
export class InvitationAcceptance {
  constructor(private readonly tokens: InvitationTokens) {}

  async accept(
    manager: EntityManager,
    account: Pick<User, 'id' | 'email' | 'emailVerifiedAt'>,
    token: string,
  ): Promise<AcceptedInvitation> {
    const invitation = await this.tokens.redeemable(manager, token);
    if (!invitation) throw InvitationErrors.invalidToken();
    assertInvitee(invitation, account);
    // the row is locked since `redeemable`: this cannot miss it
    if (!(await this.tokens.consume(manager, token, account.id))) throw InvitationErrors.invalidToken();
    const { projectId, role } = invitation;
    if (await manager.findOneBy(Membership, { projectId, userId: account.id }))
      throw conflictError(ProjectErrorCode.MemberAlreadyExists, 'You are already a member of this project');
    await manager.insert(Membership, { projectId, userId: account.id, role });
    return { projectId, role };
  }
}
