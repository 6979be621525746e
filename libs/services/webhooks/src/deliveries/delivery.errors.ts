import { invalidInput, notFoundError } from '@herald/core';

/** Stable codes of webhook deliveries (docs/errors.md). */
export const WebhookDeliveryErrorCode = {
  NotFound: 'WEBHOOK_DELIVERY_NOT_FOUND',
} as const;

/** The longest time range one replay may cover. */
export const MAX_REPLAY_RANGE_DAYS = 31;

export const WebhookDeliveryErrors = {
  notFound: (id: string) => notFoundError('Webhook delivery', id, WebhookDeliveryErrorCode.NotFound),
  badRange: (message: string) => invalidInput([{ field: 'to', message, code: 'invalid_range' }]),
};
