import { HERALD_RUNTIME, loadConfig, type HeraldRuntime } from '@herald/core';
import { Job, JobsModule } from '@herald/jobs';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AccountToken } from './accounts/account-token.entity.js';
import { User } from './accounts/user.entity.js';
import { BillingAccount, BillingLimits, BillingProviderEvent, BillingUsage } from './billing/billing.entities.js';
import { GATEWAY } from './consumer.js';
import { GATEWAY_SETTINGS, GatewaySettings } from './gateway.settings.js';
import { gatewayMigrations } from './migrations/index.js';
import { ApiKey } from './projects/api-key.entity.js';
import { ProjectInvitation } from './projects/invitations/invitation.entity.js';
import { Membership } from './projects/membership.entity.js';
import { Project } from './projects/project.entity.js';
import { ProjectSetup } from './projects/setup/project-setup.entity.js';
import { SendingSuspension } from './reputation/sending-suspension.entity.js';
import { BILLING_CLOCK, startedClock, systemClock, type BillingClock } from './shared/billing-clock.js';
import { MeteredEmail } from './shared/metered-email.entity.js';
import { createRedis } from './shared/rate-limiter.js';

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

/** The gateway's Redis client (rate limits, throttles, the projects' positions), or null: memory instead. */
export const GATEWAY_REDIS = Symbol('GATEWAY_REDIS');

class RedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(GATEWAY_REDIS) private readonly redis: Redis | null) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}

// one instance each, imported here and re-exported to every feature of the gateway
const persistence = PersistenceModule.forService(gatewaySchema);
const messaging = MessagingModule.forService({ service: GATEWAY });
const jobs = JobsModule.forService(GATEWAY);

/**
 * What every feature module of the gateway shares: its schema's data source, outbox and job queue,
 * its settings, the Redis client and the billing clock (billing and reputation decide by it).
 */
@Module({
  imports: [persistence, messaging, jobs],
  providers: [
    { provide: GATEWAY_SETTINGS, useFactory: () => loadConfig(GatewaySettings) },
    {
      provide: GATEWAY_REDIS,
      inject: [GATEWAY_SETTINGS, HERALD_RUNTIME],
      useFactory: (s: GatewaySettings, rt: HeraldRuntime): Redis | null => {
        if (rt.mode === 'distributed' && !s.REDIS_URL) throw new Error('REDIS_URL is required in distributed mode');
        return s.REDIS_URL ? createRedis(s.REDIS_URL) : null;
      },
    },
    RedisLifecycle,
    {
      provide: BILLING_CLOCK,
      inject: [GATEWAY_SETTINGS],
      useFactory: (s: GatewaySettings): BillingClock =>
        s.BILLING_CLOCK_START ? startedClock(new Date(s.BILLING_CLOCK_START)) : systemClock,
    },
  ],
  exports: [persistence, messaging, jobs, GATEWAY_SETTINGS, GATEWAY_REDIS, BILLING_CLOCK],
})
export class GatewayCoreModule {}
