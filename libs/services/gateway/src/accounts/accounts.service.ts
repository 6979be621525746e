import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, type DataSource } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { AccountErrors } from './account.errors.js';
import { AccountTokens } from './account-tokens.js';
import type { LogInDto, ResetPasswordDto, UserView } from './account.dto.js';
import { ACCOUNT_EMAIL_THROTTLE, LOGIN_THROTTLE, type AttemptThrottle } from './login-throttle.js';
import { dummyHash, hashPassword, verifyPassword } from './password-hasher.js';
import type { SessionClaims } from './session.service.js';
import { User } from './user.entity.js';
import { AccountMail } from './account-mail.js';

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export const userView = (u: User): UserView => ({
  id: u.id,
  email: u.email,
  name: u.name,
  emailVerified: u.emailVerifiedAt !== null,
  createdAt: u.createdAt.toISOString(),
});

/** Login, logout, email verification and password reset (sign-up: SignUpUseCase). */
@Injectable()
export class AccountsService {
  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    @Inject(LOGIN_THROTTLE) private readonly loginThrottle: AttemptThrottle,
    @Inject(ACCOUNT_EMAIL_THROTTLE) private readonly emailThrottle: AttemptThrottle,
    private readonly tokens: AccountTokens,
    private readonly mail: AccountMail,
  ) {}

  /**
   * An unknown email and a wrong password get the same answer (and take as long). The attempt is
   * reserved before the password is checked and released only on success.
   */
  async logIn(dto: LogInDto, address: string): Promise<User> {
    const email = normaliseEmail(dto.email);
    await this.loginThrottle.reserve(email, address);
    const user = await this.db.getRepository(User).findOneBy({ email });
    const ok = user
      ? await verifyPassword(user.passwordHash, dto.password)
      : (await verifyPassword(await dummyHash(), dto.password), false);
    if (!user || !ok) throw AccountErrors.invalidCredentials();
    await this.loginThrottle.release(email, address);
    return user;
  }

  /** Ends the session: every cookie of the user issued at this session version stops working. */
  async logOut(claims: SessionClaims): Promise<void> {
    await this.db.getRepository(User).increment({ id: claims.sub, sessionVersion: claims.sv }, 'sessionVersion', 1);
  }

  async requestVerification(user: User, address: string): Promise<void> {
    if (user.emailVerifiedAt) return;
    await this.emailThrottle.reserve(`verify:${user.id}`, address);
    await this.db.transaction((m) => this.mail.schedule(m, 'verification', user.id));
  }

  async verifyEmail(token: string): Promise<User> {
    return this.db.transaction(async (m) => {
      const userId = await this.tokens.consume(m, token, 'verify-email');
      await m.update(User, { id: userId, emailVerifiedAt: IsNull() }, { emailVerifiedAt: new Date() });
      return m.findOneByOrFail(User, { id: userId });
    });
  }

  /**
   * Always answers the same and does the same work (one throttle reservation, one queued job),
   * whether or not the account exists: the job looks the account up.
   */
  async requestPasswordReset(emailInput: string, address: string): Promise<void> {
    const email = normaliseEmail(emailInput);
    await this.emailThrottle.reserve(`reset:${email}`, address);
    await this.db.transaction((m) => this.mail.schedule(m, 'passwordReset', email));
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
}
