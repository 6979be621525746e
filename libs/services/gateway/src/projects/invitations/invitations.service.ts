import { newId } from '@herald/core';
import type { ProjectRole } from '@herald/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, MoreThan, type DataSource } from 'typeorm';
import { normaliseEmail } from '../../accounts/accounts.service.js';
import { User } from '../../accounts/user.entity.js';
import { GATEWAY } from '../../consumer.js';
import { Membership } from '../membership.entity.js';
import { ProjectMail } from '../project-mail.js';
import { MANAGERS, requireMembership } from '../project-access.js';
import type { MemberView } from '../project.dto.js';
import { ProjectErrors } from '../project.errors.js';
import { ProjectInvitation } from './invitation.entity.js';
import { InvitationAcceptance, type AcceptedInvitation } from './invitation-acceptance.js';
import { InvitationErrors } from './invitation.errors.js';

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

/**
 * `POST /projects/:id/members`: an address with a Herald account joins at once; any other address
 * gets an invitation email with a single-use token, accepted within 7 days by the account of that
 * address once verified, or by signing up with the token (docs/authentication.md). Inviting a
 * pending address again replaces its token and expiry.
 */
@Injectable()
export class InvitationsService {
  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    private readonly mail: ProjectMail,
    private readonly acceptance: InvitationAcceptance,
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

  /**
   * The signed-in user accepts: only the account of the invited address, verified, may (a leaked
   * link is refused to anyone else, and is not spent by the refusal); the token is spent and the
   * membership created in one transaction.
   */
  async accept(userId: string, token: string): Promise<AcceptedInvitation> {
    return this.db.transaction(async (m) =>
      this.acceptance.accept(m, await m.findOneByOrFail(User, { id: userId }), token),
    );
  }
}
