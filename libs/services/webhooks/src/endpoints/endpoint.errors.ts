import { conflictError, notFoundError } from '@herald/core';

/** Stable codes of webhook endpoints (docs/errors.md); integrators match on them, so never rename one. */
export const WebhookEndpointErrorCode = {
  NotFound: 'WEBHOOK_ENDPOINT_NOT_FOUND',
  Limit: 'WEBHOOK_ENDPOINT_LIMIT',
} as const;

/** Endpoints a project may have: each event is written once per subscribed endpoint. */
export const MAX_ENDPOINTS_PER_PROJECT = 20;

export const WebhookEndpointErrors = {
  /** 404: no endpoint with this id in the project. */
  notFound: (id: string) => notFoundError('Webhook endpoint', id, WebhookEndpointErrorCode.NotFound),
  /** 409: the project has as many endpoints as it may. */
  limit: () =>
    conflictError(
      WebhookEndpointErrorCode.Limit,
      `A project may have at most ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints`,
      'Delete an endpoint you no longer use, or subscribe an existing one to more event types.',
    ),
};
