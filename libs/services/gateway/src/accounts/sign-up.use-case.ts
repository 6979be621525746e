import { newId } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';
import { AccountMail } from './account-mail.js';
import type { SignUpDto } from './account.dto.js';
import { AccountErrors } from './account.errors.js';
import { normaliseEmail } from './accounts.service.js';
import { hashPassword } from './password-hasher.js';
import { SignUpInvitations } from './sign-up-invitations.js';
import { User } from './user.entity.js';

/**
 * `POST /auth/signup`. Without an invitation token the account starts unverified and its verification
 * email is queued. With one (`invitationToken`, from an invitation email), the account is created for
 * the invited address with its email verified (the link reached that inbox) and joins the project:
 * account, spent token and membership commit together, and no verification email is sent. A token
 * for another address is refused (INVITATION_EMAIL_MISMATCH) and a dead one too
 * (INVALID_INVITATION_TOKEN): nothing is created.
 */
@Injectable()
export class SignUpUseCase {
  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    private readonly mail: AccountMail,
    private readonly invitations: SignUpInvitations,
  ) {}

  async execute(dto: SignUpDto): Promise<User> {
    if (this.settings.DISABLE_SIGNUPS) throw AccountErrors.signupsDisabled();
    const email = normaliseEmail(dto.email);
    const passwordHash = await hashPassword(dto.password);
    const invitationToken = dto.invitationToken;
    // The account and its verification email (or its membership) commit together; email goes from the job queue.
    return this.db.transaction(async (m) => {
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(User)
        .values({
          id: newId('usr'),
          email,
          name: dto.name ?? null,
          passwordHash,
          sessionVersion: 1,
          emailVerifiedAt: invitationToken ? new Date() : null,
        })
        .orIgnore()
        .returning('*')
        .execute();
      if ((inserted.raw as unknown[]).length === 0) throw AccountErrors.emailAlreadyRegistered();
      const created = await m.findOneByOrFail(User, { email });
      if (invitationToken) await this.invitations.redeem(m, created, invitationToken);
      else await this.mail.schedule(m, 'verification', created.id);
      return created;
    });
  }
}
