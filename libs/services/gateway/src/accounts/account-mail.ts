import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { AccountMailer } from './account-mailer.js';
import { AccountTokens } from './account-tokens.js';
import { User } from './user.entity.js';

/** Retries back off from 1 s to a minute: about a quarter of an hour of relay outage is covered. */
export const MAIL_MAX_ATTEMPTS = 20;

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
      `Welcome to Herald.\n\nVerify your email address: ${link('/app/verify-email', token)}\n\nThe link is valid for 48 hours.`,
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
      `Someone asked to reset the password of your Herald account.\n\nReset it here (valid for one hour): ${link('/app/reset-password', token)}\n\nIf it was not you, ignore this email.`,
  },
} satisfies Record<string, AccountMailKind>;

export type AccountMailKindName = keyof typeof KINDS;

/**
 * Herald's own account emails (verification, password reset; a project's emails: ProjectMail), sent from the gateway's durable job
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
  ) {}

  onModuleInit(): void {
    for (const kind of Object.values(KINDS))
      this.jobs.register(kind.queue, ({ job }) => this.send(kind, String(job.payload.key)));
  }

  /** Queues the email in the caller's transaction: it goes out if and only if that commits. */
  async schedule(manager: EntityManager, kind: AccountMailKindName, key: string): Promise<void> {
    await this.jobs.enqueue(manager, KINDS[kind].queue, { key }, { maxAttempts: MAIL_MAX_ATTEMPTS });
  }

  private async send(kind: AccountMailKind, key: string): Promise<void> {
    const user = await kind.recipient(this.db, key);
    if (!user) return;
    const token = await this.db.transaction((m) => this.tokens.issue(m, user.id, kind.token));
    await this.mailer.send(user.email, kind.subject, kind.text(this.mailer.link.bind(this.mailer), token));
  }
}
