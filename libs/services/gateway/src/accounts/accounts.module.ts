import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { GATEWAY_REDIS, GatewayCoreModule } from '../gateway-core.module.js';
import { RateLimiter } from '../shared/rate-limiter.js';
import { AccountMail } from './account-mail.js';
import { AccountMailer } from './account-mailer.js';
import { AccountTokenStore } from './account-token.store.js';
import { AccountTokens } from './account-tokens.js';
import { AccountErrors } from './account.errors.js';
import { AccountsService } from './accounts.service.js';
import { AuthController } from './auth.controller.js';
import { OAuthController } from './oauth.controller.js';
import { OAuthLoginService } from './oauth-login.service.js';
import { ACCOUNT_EMAIL_THROTTLE, AttemptThrottle, LOGIN_THROTTLE, THROTTLE_LIMITS } from './login-throttle.js';
import { SessionService } from './session.service.js';
import { SessionStrategy } from './session.strategy.js';
import { SignUpInvitations } from './sign-up-invitations.js';
import { SignUpUseCase } from './sign-up.use-case.js';

const attemptThrottle = (
  kind: keyof typeof THROTTLE_LIMITS,
  redis: Redis | null,
  refusal: ConstructorParameters<typeof AttemptThrottle>[2],
): AttemptThrottle => {
  const l = THROTTLE_LIMITS[kind];
  const prefix = kind === 'login' ? 'login' : 'account-email';
  return new AttemptThrottle(
    new RateLimiter(l.perAccount, l.windowSeconds, `herald:rl:${prefix}-account`, redis ?? undefined),
    new RateLimiter(l.perAddress, l.windowSeconds, `herald:rl:${prefix}-address`, redis ?? undefined),
    refusal,
  );
};

/**
 * Dashboard accounts: sign-up, login (throttled), sessions (the cookie and its passport strategy),
 * email verification and password reset, the account emails, and OAuth login (ADR 0029). A sign-up with an invitation
 * joins its project through SignUpInvitations, which the projects feature plugs in.
 */
@Module({
  imports: [GatewayCoreModule],
  controllers: [AuthController, OAuthController],
  providers: [
    {
      provide: LOGIN_THROTTLE,
      inject: [GATEWAY_REDIS],
      useFactory: (redis: Redis | null) => attemptThrottle('login', redis, AccountErrors.loginThrottled),
    },
    {
      provide: ACCOUNT_EMAIL_THROTTLE,
      inject: [GATEWAY_REDIS],
      useFactory: (redis: Redis | null) => attemptThrottle('accountEmail', redis, AccountErrors.emailThrottled),
    },
    SessionService,
    SessionStrategy,
    AccountMailer,
    AccountTokenStore,
    AccountTokens,
    AccountMail,
    AccountsService,
    SignUpInvitations,
    SignUpUseCase,
    OAuthLoginService,
  ],
  exports: [SessionService, AccountMailer, SignUpInvitations],
})
export class AccountsModule {}
