import { HERALD_RUNTIME, type HeraldRuntime } from '@herald/core';
import { Public } from '@herald/http';
import { Controller, Get, Inject, Optional } from '@nestjs/common';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../billing/stripe/payment-provider.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';
import { oauthProviders } from '../accounts/oauth-providers.js';

export interface PublicConfig {
  mode: HeraldRuntime['mode'];
  signups: boolean;
  oauth: { providers: string[] };
  /** Herald can send its own account email (verification, password reset). */
  accountEmail: boolean;
  rateLimitPerMinute: number;
  /** Billing through a payment provider (checkout, portal, invoices); caps work either way. */
  billing: { enabled: boolean; provider: string | null };
}

/** `GET /config`: which integrations are enabled; no authentication. */
@Public()
@Controller('config')
export class ConfigController {
  constructor(
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @Inject(HERALD_RUNTIME) private readonly runtime: HeraldRuntime,
    @Optional() @Inject(PAYMENT_PROVIDER) private readonly payments: PaymentProvider | null,
  ) {}

  @Get()
  config(): PublicConfig {
    return {
      mode: this.runtime.mode,
      signups: !this.settings.DISABLE_SIGNUPS,
      oauth: { providers: oauthProviders(this.settings).map((p) => p.id) },
      accountEmail: Boolean(this.settings.SMTP_URL),
      rateLimitPerMinute: this.settings.RATE_LIMIT_PER_MINUTE,
      billing: { enabled: Boolean(this.payments), provider: this.payments?.name ?? null },
    };
  }
}
