import { PositionsEdge } from '@herald/messaging';
import { Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import type { Redis } from 'ioredis';
import { AccountsModule } from '../accounts/accounts.module.js';
import { BillingModule } from '../billing/billing.module.js';
import { GATEWAY_REDIS, GatewayCoreModule } from '../gateway-core.module.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';
import { RateLimiter } from '../shared/rate-limiter.js';
import { ApiReferenceController } from './api-reference.controller.js';
import { ConfigController } from './config.controller.js';
import { CredentialsService } from './credentials.service.js';
import { CredentialsStore } from './credentials.store.js';
import { DashboardSite } from './dashboard-site.controller.js';
import { EarlyAuthentication } from './early-authentication.guard.js';
import { API_RATE_LIMITER, EdgeAuthGuard, OptionalSessionGuard } from './edge-auth.guard.js';
import { OpenApiController } from './openapi.controller.js';
import { MemoryPositionsStore, RedisPositionsStore } from './project-positions.store.js';
import { PublicKeyCors } from './public-key-cors.js';

/** The edge of the deployment keeps the projects' positions (read-your-writes): Redis when set, else memory. */
@Injectable()
class PositionsAtTheEdge implements OnModuleInit {
  constructor(
    @Inject(GATEWAY_REDIS) private readonly redis: Redis | null,
    private readonly edge: PositionsEdge,
  ) {}

  onModuleInit(): void {
    this.edge.attach(this.redis ? new RedisPositionsStore(this.redis) : new MemoryPositionsStore());
  }
}

/**
 * The edge: authenticates (API keys, sessions; before the body is read too), rate-limits and guards
 * every request (EdgeAuthGuard, global), answers the public-key routes' CORS, keeps the projects'
 * positions, and tells clients what this install offers (GET /config) and its API (GET /openapi.json,
 * rendered at GET /docs); serves the dashboard (GET /, /app/…, /assets/…).
 */
@Module({
  imports: [GatewayCoreModule, PassportModule, AccountsModule, BillingModule],
  controllers: [ConfigController, OpenApiController, ApiReferenceController],
  providers: [
    PositionsAtTheEdge,
    {
      provide: API_RATE_LIMITER,
      inject: [GATEWAY_SETTINGS, GATEWAY_REDIS],
      useFactory: (s: GatewaySettings, redis: Redis | null) =>
        new RateLimiter(s.RATE_LIMIT_PER_MINUTE, 60, 'herald:rl:api', redis ?? undefined),
    },
    OptionalSessionGuard,
    CredentialsStore,
    CredentialsService,
    EarlyAuthentication,
    { provide: APP_GUARD, useClass: EdgeAuthGuard },
    PublicKeyCors,
    DashboardSite,
  ],
})
export class EdgeModule {}
