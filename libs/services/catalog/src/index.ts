import type { ServiceDefinition } from '@herald/core';
import { analyticsService } from '@herald/service-analytics';
import { campaignsService } from '@herald/service-campaigns';
import { contactsService } from '@herald/service-contacts';
import { domainsService } from '@herald/service-domains';
import { gatewayService } from '@herald/service-gateway';
import { segmentsService } from '@herald/service-segments';
import { sendingService } from '@herald/service-sending';
import { workflowsService } from '@herald/service-workflows';

/** Every Herald service, in start order: what standalone mode hosts and what tooling iterates. */
export const allServices: ServiceDefinition[] = [
  gatewayService,
  contactsService,
  sendingService,
  campaignsService,
  segmentsService,
  workflowsService,
  domainsService,
  analyticsService,
];

export function serviceNamed(name: string): ServiceDefinition {
  const def = allServices.find((s) => s.name === name);
  if (!def) throw new Error(`unknown service "${name}"; known: ${allServices.map((s) => s.name).join(', ')}`);
  return def;
}
