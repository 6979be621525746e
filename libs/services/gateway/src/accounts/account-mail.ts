import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { AccountMailer } from './account-mailer.js';
import { AccountTokens } from './account-tokens.js';
import { InvitationTokens } from '../projects/invitations/invitation-tokens.js';
import { Membership } from '../projects/membership.entity.js';
import { Project } from '../projects/project.entity.js';
import { User } from './user.entity.js';

const OWNER_NOTICE_QUEUE = 'owner-notice-email';
const INVITATION_QUEUE = 'invitation-email';

/** Retries back off from 1 s to a minute: about a quarter of an hour of relay outage is covered. */
const MAX_ATTEMPTS = 20;

interface AccountMailKind {
  queue: string;
  /** The account the email goes to, or null when there is nothing to send. */
  recipient(db: DataSource, key: string): Promise<User | null>;
  token: 'verify-email' | 'reset-password';
  subject: string;
  text(link: (path: string, token: string) => string, token: string): string;
}

const KINDS = {
  /** Keyed by user id; nothing is sent once the address is verified. */
  verification: {
    queue: 'verify-email',
    recipient: async (db, userId) => {
      const user = await db.getRepository(User).findOneBy({ id: userId });
      return user && !user.emailVerifiedAt ? user : null;
    },
    token: 'verify-email',
    subject: 'Verify your email for Herald',
    text: (link, token) =>
      `Welcome to Herald.\n\nVerify your email address: ${link('/verify-email', token)}\n\nThe link is valid for 48 hours.`,
  },
  /**
   * Keyed by normalised address, queued whether or not it has an account: the request does the
   * same work in both cases, so neither its answer nor its timing tells whether the account exists.
   */
  passwordReset: {
    queue: 'reset-password-email',
    recipient: (db, email) => db.getRepository(User).findOneBy({ email }),
    token: 'reset-password',
    subject: 'Reset your Herald password',
    text: (link, token) =>
      `Someone asked to reset the password of your Herald account.\n\nReset it here (valid for one hour): ${link('/reset-password', token)}\n\nIf it was not you, ignore this email.`,
  },
} satisfies Record<string, AccountMailKind>;

export type AccountMailKindName = keyof typeof KINDS;

/**
 * Herald's own account emails (verification, password reset, invitations, notices to owners), sent from the gateway's durable job
 * queue: the request and its email job commit together, so an SMTP relay that is down delays the
 * email (retried with backoff, across restarts) instead of failing a request whose change is
 * already made. The job issues the token when it sends, so the database holds only token hashes.
 */
@Injectable()
export class AccountMail implements OnModuleInit {
  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    @InjectJobQueue(GATEWAY) private readonly jobs: JobQueue,
    private readonly tokens: AccountTokens,
    private readonly mailer: AccountMailer,
    private readonly invitationTokens: InvitationTokens,
  ) {}

  onModuleInit(): void {
    for (const kind of Object.values(KINDS))
      this.jobs.register(kind.queue, ({ job }) => this.send(kind, String(job.payload.key)));
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
        `Accept it here: ${this.mailer.link('/accept-invitation', issued.token)}\n\n` +
        `Sign up there with this address, or log in to its Herald account. The invitation is for ${issued.invitation.email} only: no other account can accept it.\n\n` +
        `The invitation expires on ${issued.invitation.expiresAt.toISOString()}.`,
    );
  }

  /**
   * Queues a notice to every OWNER of the project (looked up when it is sent), in the caller's
   * transaction: billing thresholds, sending suspensions.
   */
  async notifyOwners(manager: EntityManager, projectId: string, subject: string, text: string): Promise<void> {
    await this.jobs.enqueue(manager, OWNER_NOTICE_QUEUE, { projectId, subject, text }, { maxAttempts: MAX_ATTEMPTS });
  }

  /** Queues the invitation email of a pending invitation; the job issues its token when it sends. */
  async invite(manager: EntityManager, invitationId: string): Promise<void> {
    await this.jobs.enqueue(manager, INVITATION_QUEUE, { key: invitationId }, { maxAttempts: MAX_ATTEMPTS });
  }

  /** Queues the email in the caller's transaction: it goes out if and only if that commits. */
  async schedule(manager: EntityManager, kind: AccountMailKindName, key: string): Promise<void> {
    await this.jobs.enqueue(manager, KINDS[kind].queue, { key }, { maxAttempts: MAX_ATTEMPTS });
  }

  private async send(kind: AccountMailKind, key: string): Promise<void> {
    const user = await kind.recipient(this.db, key);
    if (!user) return;
    const token = await this.db.transaction((m) => this.tokens.issue(m, user.id, kind.token));
    await this.mailer.send(user.email, kind.subject, kind.text(this.mailer.link.bind(this.mailer), token));
  }
}
