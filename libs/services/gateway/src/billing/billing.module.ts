import { RawBodySetup } from '@herald/http';
import { Module } from '@nestjs/common';
import { GatewayCoreModule } from '../gateway-core.module.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { ReputationModule } from '../reputation/reputation.module.js';
import { BillingMeter } from './billing-meter.js';
import { BillingProjectData } from './billing-project-data.js';
import { BillingController } from './billing.controller.js';
import { BillingService } from './billing.service.js';
import { BillingStore } from './billing.store.js';
import { ContactCreatedHandler } from './contact-created.handler.js';
import { GatewayCallHandlers } from './gateway.calls.js';
import { MeteredEmailRetention } from './metered-email-retention.js';
import { MeteredEmailStore } from './metered-email.store.js';
import { MeteringHandlers } from './metering.handlers.js';
import { PAYMENT_PROVIDER, type PaymentProvider } from './stripe/payment-provider.js';
import { StripeBillingController, StripeWebhookController } from './stripe/stripe-billing.controller.js';
import { StripeBillingService } from './stripe/stripe-billing.service.js';
import { StripeProvider } from './stripe/stripe-provider.js';

/**
 * Consumption projected from the other services' events, caps and the admission of sends (GatewayCalls),
 * and the optional payment provider (checkout, portal, invoices, its signed webhook: raw bodies kept).
 */
@Module({
  imports: [GatewayCoreModule, ProjectsModule, ReputationModule],
  controllers: [
    ContactCreatedHandler,
    BillingController,
    MeteringHandlers,
    StripeBillingController,
    StripeWebhookController,
  ],
  providers: [
    GatewayCallHandlers,
    BillingStore,
    MeteredEmailStore,
    BillingMeter,
    BillingProjectData,
    MeteredEmailRetention,
    BillingService,
    {
      provide: PAYMENT_PROVIDER,
      inject: [GATEWAY_SETTINGS],
      useFactory: (s: GatewaySettings): PaymentProvider | null =>
        s.STRIPE_SECRET_KEY && s.STRIPE_WEBHOOK_SECRET && s.STRIPE_PRICES
          ? new StripeProvider(s.STRIPE_SECRET_KEY, s.STRIPE_WEBHOOK_SECRET, s.STRIPE_API_URL)
          : null,
    },
    StripeBillingService,
    RawBodySetup,
  ],
  exports: [PAYMENT_PROVIDER],
})
export class BillingModule {}
