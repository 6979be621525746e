import type { BillingCategory } from '@herald/contracts';
import { DomainError, invalidInput } from '@herald/core';

/** Stable codes of billing (docs/errors.md, docs/billing.md; sender reputation's: reputation.errors.ts); never rename one. */
export const BillingErrorCode = {
  LimitExceeded: 'BILLING_LIMIT_EXCEEDED',
  NotConfigured: 'BILLING_NOT_CONFIGURED',
  NoCustomer: 'BILLING_CUSTOMER_NOT_FOUND',
  UnknownPrice: 'BILLING_PRICE_UNKNOWN',
  InvalidSignature: 'INVALID_WEBHOOK_SIGNATURE',
} as const;

export const BillingErrors = {
  /** 429: the category's cap for the period is reached; says which and when it resets. */
  limitExceeded: (category: BillingCategory, cap: number, used: number, resetsAt: Date, now: Date) =>
    new DomainError(
      'limited',
      BillingErrorCode.LimitExceeded,
      `The ${category} email cap of this billing period is reached (${used} of ${cap}); it resets at ${resetsAt.toISOString()}`,
      {
        suggestion: `Raise the ${category} cap (PUT /users/@me/projects/:id/billing-limits) or wait until ${resetsAt.toISOString()}.`,
        retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)),
      },
    ),
  /** 409: the payment provider is not configured on this install (caps still work). */
  notConfigured: () =>
    new DomainError(
      'conflict',
      BillingErrorCode.NotConfigured,
      'Billing through a payment provider is not configured',
      {
        suggestion:
          'Set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICES (docs/billing.md); caps work without them.',
      },
    ),
  /** 404: the project has no customer at the payment provider yet. */
  noCustomer: () =>
    new DomainError('not_found', BillingErrorCode.NoCustomer, 'This project has no billing account yet', {
      suggestion: 'Start a subscription with POST /users/@me/projects/:id/checkout first.',
    }),
  /** 422: checkout of a price that is not one of STRIPE_PRICES. */
  unknownPrice: (price: string, known: string[]) =>
    invalidInput([
      {
        field: 'priceId',
        message: `Unknown price ${price}; known: ${known.join(', ')}`,
        code: BillingErrorCode.UnknownPrice,
      },
    ]),
  /** 400 (a webhook's signature does not verify). */
  invalidSignature: (why: string) =>
    new DomainError('bad_request', BillingErrorCode.InvalidSignature, `The webhook signature is not valid: ${why}`),
};
