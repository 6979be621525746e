import { HERALD_RUNTIME, loadConfig, type HeraldRuntime } from '@herald/core';
import { RawBodySetup } from '@herald/http';
import { Job, JobsModule } from '@herald/jobs';
import { messagingEntities, MessagingModule, PositionsEdge } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Inject, Injectable, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import type { Redis } from 'ioredis';
import { AccountMailer } from './accounts/account-mailer.js';
import { AccountToken } from './accounts/account-token.entity.js';
import { AccountTokens } from './accounts/account-tokens.js';
import { AccountsService } from './accounts/accounts.service.js';
import { AuthController } from './accounts/auth.controller.js';
import { ConfigController } from './accounts/config.controller.js';
import { AccountErrors } from './accounts/account.errors.js';
import { ACCOUNT_EMAIL_THROTTLE, AttemptThrottle, LOGIN_THROTTLE, THROTTLE_LIMITS } from './accounts/login-throttle.js';
import { SessionService } from './accounts/session.service.js';
import { SessionStrategy } from './accounts/session.strategy.js';
import { SignUpUseCase } from './accounts/sign-up.use-case.js';
import { User } from './accounts/user.entity.js';
import { AccountMail } from './accounts/account-mail.js';
import { BILLING_CLOCK, startedClock, systemClock, type BillingClock } from './billing/billing-clock.js';
import { BillingMeter } from './billing/billing-meter.js';
import { BillingProjectData } from './billing/billing-project-data.js';
import { BillingController } from './billing/billing.controller.js';
import { BillingService } from './billing/billing.service.js';
import { GatewayCallHandlers } from './billing/gateway.calls.js';
import { MeteredEmailRetention } from './billing/metered-email-retention.js';
import { MeteringHandlers } from './billing/metering.handlers.js';
import { PAYMENT_PROVIDER, type PaymentProvider } from './billing/stripe/payment-provider.js';
import { StripeBillingController, StripeWebhookController } from './billing/stripe/stripe-billing.controller.js';
import { StripeBillingService } from './billing/stripe/stripe-billing.service.js';
import { StripeProvider } from './billing/stripe/stripe-provider.js';
import { GATEWAY } from './consumer.js';
import {
  BillingAccount,
  BillingLimits,
  BillingProviderEvent,
  BillingUsage,
  MeteredEmail,
} from './billing/billing.entities.js';
import { ProjectInvitation } from './projects/invitations/invitation.entity.js';
import { InvitationAcceptance } from './projects/invitations/invitation-acceptance.js';
import { InvitationTokens } from './projects/invitations/invitation-tokens.js';
import { InvitationsService } from './projects/invitations/invitations.service.js';
import { ReputationService } from './reputation/reputation.service.js';
import { SecurityController } from './reputation/security.controller.js';
import { SendingSuspension } from './reputation/sending-suspension.entity.js';
import { CredentialsService } from './edge/credentials.service.js';
import { EarlyAuthentication } from './edge/early-authentication.guard.js';
import { API_RATE_LIMITER, EdgeAuthGuard, OptionalSessionGuard } from './edge/edge-auth.guard.js';
import { PublicKeyCors } from './edge/public-key-cors.js';
import { MemoryPositionsStore, RedisPositionsStore } from './edge/project-positions.store.js';
import { createRedis, RateLimiter } from './edge/rate-limiter.js';
import { GATEWAY_SETTINGS, GatewaySettings } from './gateway.settings.js';
import { gatewayMigrations } from './migrations/index.js';
import { ApiKey } from './projects/api-key.entity.js';
import { MembersService } from './projects/members.service.js';
import { Membership } from './projects/membership.entity.js';
import { Project } from './projects/project.entity.js';
import { MeController, ProjectTeamController } from './projects/projects.controller.js';
import { ProjectsService } from './projects/projects.service.js';
import { ContactCreatedHandler } from './projects/setup/contact-created.handler.js';
import { ProjectSetup } from './projects/setup/project-setup.entity.js';

export const gatewaySchema = {
  service: GATEWAY,
  entities: [
    User,
    AccountToken,
    Project,
    ApiKey,
    Membership,
    ProjectSetup,
    ProjectInvitation,
    BillingLimits,
    BillingUsage,
    MeteredEmail,
    BillingAccount,
    BillingProviderEvent,
    SendingSuspension,
    Job,
    ...messagingEntities,
  ],
  migrations: gatewayMigrations,
};

const REDIS = Symbol('GATEWAY_REDIS');

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

/** The edge of the deployment keeps the projects' positions (read-your-writes): Redis when set, else memory. */
@Injectable()
class PositionsAtTheEdge implements OnModuleInit {
  constructor(
    @Inject(REDIS) private readonly redis: Redis | null,
    private readonly edge: PositionsEdge,
  ) {}

  onModuleInit(): void {
    this.edge.attach(this.redis ? new RedisPositionsStore(this.redis) : new MemoryPositionsStore());
  }
}

class RedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis | null) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}

/** Accounts, sessions, projects, API keys and members; authenticates, rate-limits and routes every request. */
@Module({
  imports: [
    PersistenceModule.forService(gatewaySchema),
    MessagingModule.forService({ service: GATEWAY }),
    JobsModule.forService(GATEWAY),
    PassportModule,
  ],
  controllers: [
    AuthController,
    ConfigController,
    MeController,
    ProjectTeamController,
    ContactCreatedHandler,
    BillingController,
    SecurityController,
    MeteringHandlers,
    StripeBillingController,
    StripeWebhookController,
  ],
  providers: [
    GatewayCallHandlers,
    { provide: GATEWAY_SETTINGS, useFactory: () => loadConfig(GatewaySettings) },
    {
      provide: REDIS,
      inject: [GATEWAY_SETTINGS, HERALD_RUNTIME],
      useFactory: (s: GatewaySettings, rt: HeraldRuntime): Redis | null => {
        if (rt.mode === 'distributed' && !s.REDIS_URL) throw new Error('REDIS_URL is required in distributed mode');
        return s.REDIS_URL ? createRedis(s.REDIS_URL) : null;
      },
    },
    RedisLifecycle,
    PositionsAtTheEdge,
    {
      provide: API_RATE_LIMITER,
      inject: [GATEWAY_SETTINGS, REDIS],
      useFactory: (s: GatewaySettings, redis: Redis | null) =>
        new RateLimiter(s.RATE_LIMIT_PER_MINUTE, 60, 'herald:rl:api', redis ?? undefined),
    },
    {
      provide: LOGIN_THROTTLE,
      inject: [REDIS],
      useFactory: (redis: Redis | null) => attemptThrottle('login', redis, AccountErrors.loginThrottled),
    },
    {
      provide: ACCOUNT_EMAIL_THROTTLE,
      inject: [REDIS],
      useFactory: (redis: Redis | null) => attemptThrottle('accountEmail', redis, AccountErrors.emailThrottled),
    },
    SessionService,
    SessionStrategy,
    OptionalSessionGuard,
    AccountMailer,
    AccountTokens,
    AccountMail,
    AccountsService,
    SignUpUseCase,
    ProjectsService,
    MembersService,
    InvitationTokens,
    InvitationAcceptance,
    {
      provide: BILLING_CLOCK,
      inject: [GATEWAY_SETTINGS],
      useFactory: (s: GatewaySettings): BillingClock =>
        s.BILLING_CLOCK_START ? startedClock(new Date(s.BILLING_CLOCK_START)) : systemClock,
    },
    BillingMeter,
    BillingProjectData,
    MeteredEmailRetention,
    BillingService,
    ReputationService,
    {
      provide: PAYMENT_PROVIDER,
      inject: [GATEWAY_SETTINGS],
      useFactory: (s: GatewaySettings): PaymentProvider | null =>
        s.STRIPE_SECRET_KEY && s.STRIPE_WEBHOOK_SECRET && s.STRIPE_PRICES
          ? new StripeProvider(s.STRIPE_SECRET_KEY, s.STRIPE_WEBHOOK_SECRET, s.STRIPE_API_URL)
          : null,
    },
    StripeBillingService,
    RawBodySetup,
    InvitationsService,
    CredentialsService,
    EarlyAuthentication,
    { provide: APP_GUARD, useClass: EdgeAuthGuard },
    PublicKeyCors,
  ],
  exports: [GATEWAY_SETTINGS],
})
export class GatewayModule {}
