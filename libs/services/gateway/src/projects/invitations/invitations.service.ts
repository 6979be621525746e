import { conflictError, DomainError, newId } from '@herald/core';
import type { ProjectRole } from '@herald/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, MoreThan, type DataSource } from 'typeorm';
import { AccountMail } from '../../accounts/account-mail.js';
import { normaliseEmail } from '../../accounts/accounts.service.js';
import { User } from '../../accounts/user.entity.js';
import { GATEWAY } from '../../consumer.js';
import { Membership } from '../membership.entity.js';
import { MANAGERS, requireMembership } from '../project-access.js';
import type { MemberView } from '../project.dto.js';
import { ProjectErrors } from '../project.errors.js';
import { ProjectInvitation } from './invitation.entity.js';
import { InvitationTokens } from './invitation-tokens.js';

/** How long an invitation can be accepted. */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

export interface InvitationView {
  id: string;
  email: string;
  role: ProjectRole;
  status: 'pending';
  invitedBy: string;
  expiresAt: string;
  createdAt: string;
}

export type InviteOutcome = { added: MemberView } | { invited: InvitationView };

const view = (i: ProjectInvitation): InvitationView => ({
  id: i.id,
  email: i.email,
  role: i.role,
  status: 'pending',
  invitedBy: i.invitedBy,
  expiresAt: i.expiresAt.toISOString(),
  createdAt: i.createdAt.toISOString(),
});

export const InvitationErrors = {
  notFound: (id: string) => new DomainError('not_found', 'INVITATION_NOT_FOUND', `Invitation ${id} does not exist`),
  /** The token is unknown, used, revoked or expired (one answer: it tells nothing about which). */
  invalidToken: () =>
    new DomainError('bad_request', 'INVALID_INVITATION_TOKEN', 'This invitation link is not valid or has expired', {
      suggestion: 'Ask a project OWNER or ADMIN to invite you again.',
    }),
};

/**
 * `POST /projects/:id/members`: an address with a Herald account joins at once; any other address
 * gets an invitation email with a single-use token, accepted by a signed-in user (after sign-up or
 * login) within 7 days. Inviting a pending address again replaces its token and expiry.
 */
@Injectable()
export class InvitationsService {
  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    private readonly mail: AccountMail,
    private readonly tokens: InvitationTokens,
  ) {}

  async invite(actorId: string, projectId: string, rawEmail: string, role: ProjectRole): Promise<InviteOutcome> {
    const email = normaliseEmail(rawEmail);
    return this.db.transaction(async (m) => {
      const actor = await requireMembership(m, actorId, projectId, MANAGERS);
      if (role === 'OWNER' && actor.role !== 'OWNER')
        throw ProjectErrors.insufficientRole('Only an OWNER can make someone an OWNER');
      const user = await m.findOneBy(User, { email });
      if (user) {
        if (await m.findOneBy(Membership, { projectId, userId: user.id }))
          throw ProjectErrors.memberAlreadyExists(user.email);
        await m.insert(Membership, { projectId, userId: user.id, role });
        const created = await m.findOneByOrFail(Membership, { projectId, userId: user.id });
        return {
          added: {
            userId: user.id,
            email: user.email,
            name: user.name,
            role,
            joinedAt: created.createdAt.toISOString(),
          },
        };
      }
      const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
      const pending = await m.findOneBy(ProjectInvitation, {
        projectId,
        email,
        acceptedAt: IsNull(),
        revokedAt: IsNull(),
      });
      const id = pending?.id ?? newId('inv');
      if (pending) await m.update(ProjectInvitation, { id }, { role, expiresAt, invitedBy: actorId, tokenHash: null });
      else
        await m.insert(ProjectInvitation, {
          id,
          projectId,
          email,
          role,
          invitedBy: actorId,
          tokenHash: null,
          expiresAt,
          acceptedAt: null,
          acceptedBy: null,
          revokedAt: null,
        });
      await this.mail.invite(m, id);
      return { invited: view(await m.findOneByOrFail(ProjectInvitation, { id })) };
    });
  }

  /** Pending, unexpired invitations; any member sees them (as they see the members). */
  async list(actorId: string, projectId: string): Promise<InvitationView[]> {
    await requireMembership(this.db.manager, actorId, projectId);
    const rows = await this.db.getRepository(ProjectInvitation).find({
      where: { projectId, acceptedAt: IsNull(), revokedAt: IsNull(), expiresAt: MoreThan(new Date()) },
      order: { createdAt: 'ASC' },
    });
    return rows.map(view);
  }

  async revoke(actorId: string, projectId: string, invitationId: string): Promise<void> {
    await this.db.transaction(async (m) => {
      await requireMembership(m, actorId, projectId, MANAGERS);
      const res = await m.update(
        ProjectInvitation,
        { id: invitationId, projectId, acceptedAt: IsNull(), revokedAt: IsNull() },
        { revokedAt: new Date() },
      );
      if (!res.affected) throw InvitationErrors.notFound(invitationId);
    });
  }

  /** The signed-in user accepts: the token is spent and the membership created in one transaction. */
  async accept(userId: string, token: string): Promise<{ projectId: string; role: ProjectRole }> {
    return this.db.transaction(async (m) => {
      const invitation = await this.tokens.consume(m, token, userId);
      if (!invitation) throw InvitationErrors.invalidToken();
      const existing = await m.findOneBy(Membership, { projectId: invitation.projectId, userId });
      if (existing) throw conflictError('MEMBER_ALREADY_EXISTS', 'You are already a member of this project');
      await m.insert(Membership, { projectId: invitation.projectId, userId, role: invitation.role });
      return invitation;
    });
  }
}
