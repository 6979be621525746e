import type { ServiceDefinition } from '@herald/core';
import {
  BillingAccount,
  BillingLimits,
  BillingProviderEvent,
  BillingUsage,
  MeteredEmail,
} from './billing/billing.entities.js';
import { BillingProjectData } from './billing/billing-project-data.js';
import { GATEWAY } from './consumer.js';
import { ProjectInvitation } from './projects/invitations/invitation.entity.js';
import { SendingSuspension } from './reputation/sending-suspension.entity.js';
import { EdgeProxyModule } from './edge/edge-proxy.module.js';
import { gatewaySchema, GatewayModule } from './gateway.module.js';
import { ApiKey } from './projects/api-key.entity.js';
import { Membership } from './projects/membership.entity.js';
import { ProjectSetup } from './projects/setup/project-setup.entity.js';
import { GatewayServiceConfig } from './gateway.settings.js';

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
