import { newId } from '@herald/core';
import { ErrorCode, HeraldException, conflict } from '@herald/http';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, type DataSource } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';
import { AccountMailer } from './account-mailer.js';
import { AccountTokens } from './account-tokens.js';
import type { LogInDto, ResetPasswordDto, SignUpDto, UserView } from './account.dto.js';
import { LOGIN_THROTTLE, type LoginThrottle } from './login-throttle.js';
import { dummyHash, hashPassword, verifyPassword } from './password-hasher.js';
import { User } from './user.entity.js';

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export const userView = (u: User): UserView => ({
  id: u.id,
  email: u.email,
  name: u.name,
  emailVerified: u.emailVerifiedAt !== null,
  createdAt: u.createdAt.toISOString(),
});

/** Sign-up, login, email verification and password reset. */
@Injectable()
export class AccountsService {
  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @Inject(LOGIN_THROTTLE) private readonly throttle: LoginThrottle,
    private readonly tokens: AccountTokens,
    private readonly mailer: AccountMailer,
  ) {}

  async signUp(dto: SignUpDto): Promise<User> {
    if (this.settings.DISABLE_SIGNUPS) {
      throw new HeraldException(403, ErrorCode.SignupsDisabled, 'Sign-ups are disabled on this Herald instance', {
        suggestion: 'Ask an administrator of this instance to invite you to a project.',
      });
    }
    const email = normaliseEmail(dto.email);
    const passwordHash = await hashPassword(dto.password);
    const { user, token } = await this.db.transaction(async (m) => {
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(User)
        .values({ id: newId('usr'), email, name: dto.name ?? null, passwordHash, sessionVersion: 1, emailVerifiedAt: null })
        .orIgnore()
        .returning('*')
        .execute();
      if ((inserted.raw as unknown[]).length === 0) throw conflict('An account with this email already exists', 'Log in, or reset your password.');
      const created = await m.findOneByOrFail(User, { email });
      return { user: created, token: await this.tokens.issue(m, created.id, 'verify-email') };
    });
    await this.sendVerification(user, token);
    return user;
  }

  /** An unknown email and a wrong password get the same answer (and take as long). */
  async logIn(dto: LogInDto, address: string): Promise<User> {
    const email = normaliseEmail(dto.email);
    await this.throttle.assertAllowed(email, address);
    const user = await this.db.getRepository(User).findOneBy({ email });
    const ok = user ? await verifyPassword(user.passwordHash, dto.password) : (await verifyPassword(await dummyHash(), dto.password), false);
    if (!user || !ok) {
      await this.throttle.recordFailure(email, address);
      throw new HeraldException(401, ErrorCode.InvalidCredentials, 'Email or password is incorrect', {
        suggestion: 'Check both, or reset your password.',
      });
    }
    await this.throttle.recordSuccess(email);
    return user;
  }

  async requestVerification(user: User): Promise<void> {
    if (user.emailVerifiedAt) return;
    const token = await this.db.transaction((m) => this.tokens.issue(m, user.id, 'verify-email'));
    await this.sendVerification(user, token);
  }

  async verifyEmail(token: string): Promise<User> {
    return this.db.transaction(async (m) => {
      const userId = await this.tokens.consume(m, token, 'verify-email');
      await m.update(User, { id: userId, emailVerifiedAt: IsNull() }, { emailVerifiedAt: new Date() });
      return m.findOneByOrFail(User, { id: userId });
    });
  }

  /** Always answers the same, whether or not the account exists. */
  async requestPasswordReset(emailInput: string): Promise<void> {
    const user = await this.db.getRepository(User).findOneBy({ email: normaliseEmail(emailInput) });
    if (!user) return;
    const token = await this.db.transaction((m) => this.tokens.issue(m, user.id, 'reset-password'));
    await this.mailer.send(
      user.email,
      'Reset your Herald password',
      `Someone asked to reset the password of your Herald account.\n\nReset it here (valid for one hour): ${this.mailer.link('/reset-password', token)}\n\nIf it was not you, ignore this email.`,
    );
  }

  /** Sets the new password and ends every existing session of the account. */
  async resetPassword(dto: ResetPasswordDto): Promise<User> {
    const passwordHash = await hashPassword(dto.password);
    return this.db.transaction(async (m) => {
      const userId = await this.tokens.consume(m, dto.token, 'reset-password');
      await m.increment(User, { id: userId }, 'sessionVersion', 1);
      await m.update(User, { id: userId }, { passwordHash });
      return m.findOneByOrFail(User, { id: userId });
    });
  }

  private async sendVerification(user: User, token: string): Promise<void> {
    await this.mailer.send(
      user.email,
      'Verify your email for Herald',
      `Welcome to Herald.\n\nVerify your email address: ${this.mailer.link('/verify-email', token)}\n\nThe link is valid for 48 hours.`,
    );
  }
}
