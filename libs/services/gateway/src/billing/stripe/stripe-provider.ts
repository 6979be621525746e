import Stripe from 'stripe';
import type { InvoiceView, PaymentProvider, ProviderEvent, ProviderSubscription } from './payment-provider.js';

const iso = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);
const date = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);
const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));

/** Stripe through its official Node SDK; `apiUrl` points the SDK elsewhere (tests: a loopback stand-in). */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe';
  private readonly stripe: Stripe;

  constructor(
    secretKey: string,
    private readonly webhookSecret: string,
    apiUrl?: string,
  ) {
    const url = apiUrl ? new URL(apiUrl) : undefined;
    this.stripe = new Stripe(secretKey, {
      maxNetworkRetries: 2,
      timeout: 10_000,
      telemetry: false,
      appInfo: { name: 'Herald' },
      ...(url
        ? {
            host: url.hostname,
            port: url.port || (url.protocol === 'http:' ? 80 : 443),
            protocol: url.protocol === 'http:' ? 'http' : 'https',
          }
        : {}),
    });
  }

  async createCustomer(args: { projectId: string; projectName: string; email: string }): Promise<string> {
    const customer = await this.stripe.customers.create(
      { email: args.email, name: args.projectName, metadata: { projectId: args.projectId } },
      { idempotencyKey: `herald-customer-${args.projectId}` },
    );
    return customer.id;
  }

  async checkoutSession(args: {
    customerId: string;
    priceId: string;
    projectId: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ id: string; url: string }> {
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: args.customerId,
      client_reference_id: args.projectId,
      line_items: [{ price: args.priceId, quantity: 1 }],
      subscription_data: { metadata: { projectId: args.projectId } },
      success_url: args.successUrl,
      cancel_url: args.cancelUrl,
    });
    if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
    return { id: session.id, url: session.url };
  }

  async portalSession(args: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: args.customerId,
      return_url: args.returnUrl,
    });
    return { url: session.url };
  }

  async invoices(customerId: string): Promise<InvoiceView[]> {
    const page = await this.stripe.invoices.list({ customer: customerId, limit: 100 });
    return page.data.map((i) => ({
      id: i.id ?? '',
      number: i.number ?? null,
      status: i.status ?? null,
      currency: i.currency,
      amountDue: i.amount_due,
      amountPaid: i.amount_paid,
      total: i.total,
      createdAt: iso(i.created)!,
      periodStart: iso(i.period_start),
      periodEnd: iso(i.period_end),
      hostedInvoiceUrl: i.hosted_invoice_url ?? null,
      pdfUrl: i.invoice_pdf ?? null,
    }));
  }

  verifyWebhook(rawBody: Buffer, signature: string): ProviderEvent {
    const event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
    const out: ProviderEvent = { id: event.id, type: event.type };
    if (event.type.startsWith('customer.subscription.')) {
      const s = event.data.object as Stripe.Subscription;
      const item = s.items?.data?.[0];
      // the current period is per item in recent API versions; older payloads carry it on the subscription
      const legacy = s as unknown as { current_period_start?: number; current_period_end?: number };
      const subscription: ProviderSubscription = {
        id: s.id,
        customerId: idOf(s.customer)!,
        priceId: item?.price?.id ?? null,
        status: s.status,
        periodStart: date(item?.current_period_start ?? legacy.current_period_start),
        periodEnd: date(item?.current_period_end ?? legacy.current_period_end),
        projectId: s.metadata?.projectId ?? null,
      };
      out.subscription = subscription;
    }
    return out;
  }
}
