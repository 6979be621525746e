import type { ServiceDefinition } from '@herald/core';
import { Module } from '@nestjs/common';
import { AccountsModule } from './accounts/accounts.module.js';
import { BillingModule } from './billing/billing.module.js';
import { BillingProjectData } from './billing/billing-project-data.js';
import { BillingAccount, BillingLimits, BillingProviderEvent, BillingUsage } from './billing/billing.entities.js';
import { GATEWAY } from './consumer.js';
import { EdgeProxyModule } from './edge/edge-proxy.module.js';
import { EdgeModule } from './edge/edge.module.js';
import { gatewaySchema } from './gateway-core.module.js';
import { GatewayServiceConfig } from './gateway.settings.js';
import { ApiKey } from './projects/api-key.entity.js';
import { ProjectInvitation } from './projects/invitations/invitation.entity.js';
import { Membership } from './projects/membership.entity.js';
import { ProjectsModule } from './projects/projects.module.js';
import { ProjectSetup } from './projects/setup/project-setup.entity.js';
import { ReputationModule } from './reputation/reputation.module.js';
import { SendingSuspension } from './reputation/sending-suspension.entity.js';
import { MeteredEmail } from './shared/metered-email.entity.js';

export { gatewaySchema };

/**
 * Accounts, sessions, projects, API keys and members, billing and sender reputation; authenticates,
 * rate-limits and routes every request. One module per feature, each over GatewayCoreModule (the
 * schema, outbox, job queue, settings and Redis they share).
 */
@Module({
  imports: [AccountsModule, ProjectsModule, ReputationModule, BillingModule, EdgeModule],
})
export class GatewayModule {}

export const gatewayService: ServiceDefinition = {
  name: GATEWAY,
  module: GatewayModule,
  distributedModule: EdgeProxyModule,
  config: GatewayServiceConfig,
  schema: gatewaySchema,
  // the gateway deletes these itself with the project (and the setup state on reset); its consumer
  // repeats that, harmlessly, so that the one mechanism covers every schema
  // billing and reputation survive a reset (a reset must not give back a period's consumption or lift a
  // suspension); the stored-contacts gauge is zeroed by the hook, as the reset deletes the contacts
  projectData: {
    tables: [ProjectSetup],
    keptOnReset: [
      ApiKey,
      Membership,
      ProjectInvitation,
      BillingLimits,
      BillingUsage,
      MeteredEmail,
      BillingAccount,
      BillingProviderEvent,
      SendingSuspension,
    ],
    hook: BillingProjectData,
  },
};
