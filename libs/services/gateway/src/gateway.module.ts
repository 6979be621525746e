import { HERALD_RUNTIME, loadConfig, type HeraldRuntime } from '@herald/core';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import type { Redis } from 'ioredis';
import { AccountMailer } from './accounts/account-mailer.js';
import { AccountToken } from './accounts/account-token.entity.js';
import { AccountTokens } from './accounts/account-tokens.js';
import { AccountsService } from './accounts/accounts.service.js';
import { AuthController } from './accounts/auth.controller.js';
import { ConfigController } from './accounts/config.controller.js';
import { LOGIN_THROTTLE, LoginThrottle } from './accounts/login-throttle.js';
import { SessionService } from './accounts/session.service.js';
import { SessionStrategy } from './accounts/session.strategy.js';
import { User } from './accounts/user.entity.js';
import { GATEWAY } from './consumer.js';
import { CredentialsService } from './edge/credentials.service.js';
import { API_RATE_LIMITER, EdgeAuthGuard, OptionalSessionGuard } from './edge/edge-auth.guard.js';
import { PublicKeyCors } from './edge/public-key-cors.js';
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
  entities: [User, AccountToken, Project, ApiKey, Membership, ProjectSetup, ...messagingEntities],
  migrations: gatewayMigrations,
};

const REDIS = Symbol('GATEWAY_REDIS');

class RedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis | null) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}

/** Accounts, sessions, projects, API keys and members; authenticates, rate-limits and routes every request. */
@Module({
  imports: [PersistenceModule.forService(gatewaySchema), MessagingModule.forService({ service: GATEWAY }), PassportModule],
  controllers: [AuthController, ConfigController, MeController, ProjectTeamController, ContactCreatedHandler],
  providers: [
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
    {
      provide: API_RATE_LIMITER,
      inject: [GATEWAY_SETTINGS, REDIS],
      useFactory: (s: GatewaySettings, redis: Redis | null) => new RateLimiter(s.RATE_LIMIT_PER_MINUTE, 60, 'herald:rl:api', redis ?? undefined),
    },
    {
      provide: LOGIN_THROTTLE,
      inject: [REDIS],
      useFactory: (redis: Redis | null) =>
        new LoginThrottle(new RateLimiter(5, 15 * 60, 'herald:rl:login-account', redis ?? undefined), new RateLimiter(30, 15 * 60, 'herald:rl:login-address', redis ?? undefined)),
    },
    SessionService,
    SessionStrategy,
    OptionalSessionGuard,
    AccountMailer,
    AccountTokens,
    AccountsService,
    ProjectsService,
    MembersService,
    CredentialsService,
    { provide: APP_GUARD, useClass: EdgeAuthGuard },
    PublicKeyCors,
  ],
  exports: [GATEWAY_SETTINGS],
})
export class GatewayModule {}
