import type { BillingCaps } from '../billing-rules.js';

export interface InvoiceView {
  id: string;
  number: string | null;
  status: string | null;
  currency: string;
  amountDue: number;
  amountPaid: number;
  total: number;
  createdAt: string;
  periodStart: string | null;
  periodEnd: string | null;
  hostedInvoiceUrl: string | null;
  pdfUrl: string | null;
}

/** A subscription as Herald needs it: whose, which price (plan), its state and current period. */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  priceId: string | null;
  status: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  /** `metadata.projectId` when Herald's checkout created it. */
  projectId: string | null;
}

/** A verified webhook event: its id (applied once) and, for subscription events, the subscription. */
export interface ProviderEvent {
  id: string;
  type: string;
  subscription?: ProviderSubscription;
}

/**
 * The payment provider behind billing (Stripe today, through its official SDK): the few calls Herald
 * makes, so the billing use cases know nothing of the SDK and tests can point the SDK at a stand-in.
 */
export interface PaymentProvider {
  readonly name: string;
  createCustomer(args: { projectId: string; projectName: string; email: string }): Promise<string>;
  checkoutSession(args: {
    customerId: string;
    priceId: string;
    projectId: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ id: string; url: string }>;
  portalSession(args: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  invoices(customerId: string): Promise<InvoiceView[]>;
  /** Verifies the signature over the exact bytes; throws on a bad or stale signature. */
  verifyWebhook(rawBody: Buffer, signature: string): ProviderEvent;
}

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');

/** The plans: price id → caps (`STRIPE_PRICES`, first = checkout's default). */
export type Plans = Map<string, BillingCaps>;

/** Parses `price_a=10000/50000/-,price_b=-/-/-` (transactional/campaign/workflow; `-` is no cap). */
export function parsePlans(spec: string | undefined): Plans {
  const plans: Plans = new Map();
  for (const entry of (spec ?? '').split(',').filter(Boolean)) {
    const [price, caps] = entry.split('=') as [string, string];
    const [transactional, campaign, workflow] = caps.split('/').map((c) => (c === '-' ? null : Number(c)));
    plans.set(price, { transactional: transactional ?? null, campaign: campaign ?? null, workflow: workflow ?? null });
  }
  return plans;
}
