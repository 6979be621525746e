import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { MAIL_MAX_ATTEMPTS } from '../accounts/account-mail.js';
import { AccountMailer } from '../accounts/account-mailer.js';
import { User } from '../accounts/user.entity.js';
import { GATEWAY } from '../consumer.js';
import { InvitationTokens } from './invitations/invitation-tokens.js';
import { Membership } from './membership.entity.js';
import { Project } from './project.entity.js';

const OWNER_NOTICE_QUEUE = 'owner-notice-email';
const INVITATION_QUEUE = 'invitation-email';

/**
 * A project's emails (invitations, notices to its owners), sent as the account emails are (AccountMail):
 * queued in the caller's transaction on the gateway's durable job queue, sent by the job, retried
 * with backoff across restarts while the SMTP relay is down.
 */
@Injectable()
export class ProjectMail implements OnModuleInit {
  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    @InjectJobQueue(GATEWAY) private readonly jobs: JobQueue,
    private readonly mailer: AccountMailer,
    private readonly invitationTokens: InvitationTokens,
  ) {}

  onModuleInit(): void {
    this.jobs.register(OWNER_NOTICE_QUEUE, ({ job }) =>
      this.sendOwnerNotice(String(job.payload.projectId), String(job.payload.subject), String(job.payload.text)),
    );
    this.jobs.register(INVITATION_QUEUE, ({ job }) => this.sendInvitation(String(job.payload.key)));
  }

  private async sendOwnerNotice(projectId: string, subject: string, text: string): Promise<void> {
    const owners: { email: string }[] = await this.db
      .createQueryBuilder(Membership, 'm')
      .innerJoin(User, 'u', 'u.id = m.user_id')
      .select('u.email', 'email')
      .where('m.project_id = :projectId AND m.role = :role', { projectId, role: 'OWNER' })
      .getRawMany();
    for (const owner of owners) await this.mailer.send(owner.email, subject, text);
  }

  /** A new token each time the job runs (the previous one stops working); nothing once accepted, revoked or expired. */
  private async sendInvitation(invitationId: string): Promise<void> {
    const issued = await this.db.transaction((m) => this.invitationTokens.issue(m, invitationId));
    if (!issued) return;
    const project = await this.db.getRepository(Project).findOneBy({ id: issued.invitation.projectId });
    await this.mailer.send(
      issued.invitation.email,
      `You are invited to ${project?.name ?? 'a project'} on Herald`,
      `You have been invited to join the Herald project "${project?.name ?? issued.invitation.projectId}" as ${issued.invitation.role}.\n\n` +
        `Accept it here: ${this.mailer.link('/app/accept-invitation', issued.token)}\n\n` +
        `Sign up there with this address, or log in to its Herald account. The invitation is for ${issued.invitation.email} only: no other account can accept it.\n\n` +
        `The invitation expires on ${issued.invitation.expiresAt.toISOString()}.`,
    );
  }

  /**
   * Queues a notice to every OWNER of the project (looked up when it is sent), in the caller's
   * transaction: billing thresholds, sending suspensions.
   */
  async notifyOwners(manager: EntityManager, projectId: string, subject: string, text: string): Promise<void> {
    await this.jobs.enqueue(
      manager,
      OWNER_NOTICE_QUEUE,
      { projectId, subject, text },
      { maxAttempts: MAIL_MAX_ATTEMPTS },
    );
  }

  /** Queues the invitation email of a pending invitation; the job issues its token when it sends. */
  async invite(manager: EntityManager, invitationId: string): Promise<void> {
    await this.jobs.enqueue(manager, INVITATION_QUEUE, { key: invitationId }, { maxAttempts: MAIL_MAX_ATTEMPTS });
  }
}
