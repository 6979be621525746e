import type { Endpoint, EndpointStatus } from './endpoint.entity.js';

/** A webhook endpoint as the API shows it (never its secret, which is shown once: on creation and rotation). */
export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  /** `failing` from the moment one of its deliveries is dead (its retries spent) until one succeeds. */
  status: EndpointStatus;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An endpoint with its new signing secret (`whsec_…`): the answer of its creation and of a rotation, the only times it is shown. */
export interface WebhookEndpointWithSecret extends WebhookEndpointView {
  secret: string;
}

export function endpointView(e: Endpoint): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    enabled: e.enabled,
    status: e.status,
    failingSince: e.failingSince?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
