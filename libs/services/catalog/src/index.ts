import { SERVICES, type ServiceDefinition, type ServiceName } from '@herald/core';
import { analyticsService } from '@herald/service-analytics';
import { campaignsService } from '@herald/service-campaigns';
import { contactsService } from '@herald/service-contacts';
import { domainsService } from '@herald/service-domains';
import { gatewayService } from '@herald/service-gateway';
import { segmentsService } from '@herald/service-segments';
import { sendingService } from '@herald/service-sending';
import { webhooksService } from '@herald/service-webhooks';
import { workflowsService } from '@herald/service-workflows';

/** Each service of the one list (`SERVICES` in @herald/core) with its module: a name without a definition does not compile. */
const definitions: Record<ServiceName, ServiceDefinition> = {
  gateway: gatewayService,
  contacts: contactsService,
  sending: sendingService,
  campaigns: campaignsService,
  segments: segmentsService,
  workflows: workflowsService,
  domains: domainsService,
  analytics: analyticsService,
  webhooks: webhooksService,
};

/** Every Herald service, in the one list's (start) order: what standalone mode hosts and what tooling iterates. */
export const allServices: ServiceDefinition[] = SERVICES.map((s) => {
  const def = definitions[s.name];
  if (def.name !== s.name) throw new Error(`the catalog's "${s.name}" entry is the definition of "${def.name}"`);
  return def;
});

export function serviceNamed(name: string): ServiceDefinition {
  const def = allServices.find((s) => s.name === name);
  if (!def) throw new Error(`unknown service "${name}"; known: ${allServices.map((s) => s.name).join(', ')}`);
  return def;
}
