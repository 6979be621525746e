import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { User } from '../../accounts/user.entity.js';
import { GATEWAY } from '../../consumer.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../../gateway.settings.js';
import { MANAGERS, requireMembership } from '../../projects/project-access.js';
import { Project } from '../../projects/project.entity.js';
import { BillingErrors } from '../billing.errors.js';
import { BillingAccount, BillingProviderEvent } from '../billing.entities.js';
import { BillingService } from '../billing.service.js';
import {
  PAYMENT_PROVIDER,
  parsePlans,
  type InvoiceView,
  type PaymentProvider,
  type Plans,
  type ProviderSubscription,
} from './payment-provider.js';

export interface WebhookReceipt {
  received: true;
  /** The event id was applied before: nothing changed. */
  duplicate: boolean;
}

/** Subscription states whose plan applies (its caps); others leave the caps as they are. */
const LIVE = ['active', 'trialing', 'past_due'];

/**
 * The optional payment provider: checkout and billing-portal sessions (OWNER or ADMIN), the
 * customer's invoices, and the signed webhook that applies a subscription change (plan → caps,
 * provider period → billing period) once per event id. Without a provider every route answers
 * BILLING_NOT_CONFIGURED; caps set by an owner work either way.
 */
@Injectable()
export class StripeBillingService {
  private readonly plans: Plans;

  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    private readonly billing: BillingService,
    @Optional() @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider | null,
  ) {
    this.plans = parsePlans(settings.STRIPE_PRICES);
  }

  get enabled(): boolean {
    return Boolean(this.provider);
  }

  async checkout(userId: string, projectId: string, priceId?: string): Promise<{ id: string; url: string }> {
    const provider = this.required();
    await requireMembership(this.db.manager, userId, projectId, MANAGERS);
    const price = priceId ?? [...this.plans.keys()][0]!;
    if (!this.plans.has(price)) throw BillingErrors.unknownPrice(price, [...this.plans.keys()]);
    const customerId = await this.customerOf(provider, userId, projectId);
    return provider.checkoutSession({
      customerId,
      priceId: price,
      projectId,
      successUrl: this.appLink(projectId, 'checkout=success'),
      cancelUrl: this.appLink(projectId, 'checkout=cancelled'),
    });
  }

  async portal(userId: string, projectId: string): Promise<{ url: string }> {
    const provider = this.required();
    await requireMembership(this.db.manager, userId, projectId, MANAGERS);
    const account = await this.db.getRepository(BillingAccount).findOneBy({ projectId });
    if (!account) throw BillingErrors.noCustomer();
    return provider.portalSession({ customerId: account.customerId, returnUrl: this.appLink(projectId) });
  }

  async invoices(userId: string, projectId: string): Promise<{ data: InvoiceView[] }> {
    const provider = this.required();
    await requireMembership(this.db.manager, userId, projectId);
    const account = await this.db.getRepository(BillingAccount).findOneBy({ projectId });
    return { data: account ? await provider.invoices(account.customerId) : [] };
  }

  /** `POST /webhooks/incoming/stripe`: verified over the raw bytes, applied once per event id. */
  async webhook(rawBody: Buffer, signature: string | undefined): Promise<WebhookReceipt> {
    const provider = this.required();
    if (!signature) throw BillingErrors.invalidSignature('the Stripe-Signature header is missing');
    let event;
    try {
      event = provider.verifyWebhook(rawBody, signature);
    } catch (err) {
      throw BillingErrors.invalidSignature((err as Error).message);
    }
    return this.db.transaction(async (m) => {
      const subscription = event.subscription;
      const account = subscription ? await this.accountOf(m, subscription) : null;
      const claimed: unknown[] = await m
        .createQueryBuilder()
        .insert()
        .into(BillingProviderEvent)
        .values({ eventId: event.id, type: event.type, projectId: account?.projectId ?? null })
        .orIgnore()
        .returning('event_id')
        .execute()
        .then((r) => r.raw as unknown[]);
      if (claimed.length === 0) return { received: true, duplicate: true };
      if (subscription && account) {
        const deleted = event.type === 'customer.subscription.deleted';
        await m.update(
          BillingAccount,
          { projectId: account.projectId },
          {
            subscriptionId: subscription.id,
            priceId: subscription.priceId,
            status: deleted ? 'canceled' : subscription.status,
            periodStart: deleted ? null : subscription.periodStart,
            periodEnd: deleted ? null : subscription.periodEnd,
          },
        );
        const caps = subscription.priceId ? this.plans.get(subscription.priceId) : undefined;
        if (!deleted && caps && LIVE.includes(subscription.status))
          await this.billing.writeCaps(m, account.projectId, caps, 'stripe');
      }
      return { received: true, duplicate: false };
    });
  }

  private async accountOf(m: DataSource['manager'], s: ProviderSubscription): Promise<BillingAccount | null> {
    const byCustomer = await m.findOneBy(BillingAccount, { customerId: s.customerId });
    if (byCustomer || !s.projectId) return byCustomer;
    // a customer made outside Herald's checkout, naming the project in the subscription's metadata
    if (!(await m.findOneBy(Project, { id: s.projectId }))) return null;
    await m.insert(BillingAccount, { projectId: s.projectId, customerId: s.customerId });
    return m.findOneByOrFail(BillingAccount, { projectId: s.projectId });
  }

  /** The project's customer, created once (the project row's lock orders concurrent checkouts). */
  private async customerOf(provider: PaymentProvider, userId: string, projectId: string): Promise<string> {
    return this.db.transaction(async (m) => {
      const project = await m
        .getRepository(Project)
        .createQueryBuilder('p')
        .setLock('pessimistic_write')
        .where('p.id = :projectId', { projectId })
        .getOneOrFail();
      const existing = await m.findOneBy(BillingAccount, { projectId });
      if (existing) return existing.customerId;
      const user = await m.findOneByOrFail(User, { id: userId });
      const customerId = await provider.createCustomer({ projectId, projectName: project.name, email: user.email });
      await m.insert(BillingAccount, { projectId, customerId });
      return customerId;
    });
  }

  private required(): PaymentProvider {
    if (!this.provider) throw BillingErrors.notConfigured();
    return this.provider;
  }

  private appLink(projectId: string, query?: string): string {
    const url = new URL(`/projects/${projectId}/billing`, this.settings.APP_URL);
    if (query) url.search = query;
    return url.toString();
  }
}
