import { KeepRawBody, Public, RawBody } from '@herald/http';
import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { User } from '../../accounts/user.entity.js';
import { CurrentUser, SessionAuth } from '../../accounts/auth-decorators.js';
import type { InvoiceView } from './payment-provider.js';
import { StripeBillingService, type WebhookReceipt } from './stripe-billing.service.js';

export class CheckoutDto {
  /** One of STRIPE_PRICES; the first when omitted. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  priceId?: string;
}

/** Checkout, billing portal and invoices of a project at the payment provider (docs/billing.md). */
@SessionAuth()
@Controller('users/@me/projects/:id')
export class StripeBillingController {
  constructor(private readonly stripe: StripeBillingService) {}

  @Post('checkout')
  @HttpCode(200)
  checkout(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Body() body: CheckoutDto,
  ): Promise<{ id: string; url: string }> {
    return this.stripe.checkout(user.id, id, body.priceId);
  }

  @Post('billing-portal')
  @HttpCode(200)
  portal(@CurrentUser() user: User, @Param('id') id: string): Promise<{ url: string }> {
    return this.stripe.portal(user.id, id);
  }

  @Get('billing-invoices')
  invoices(@CurrentUser() user: User, @Param('id') id: string): Promise<{ data: InvoiceView[] }> {
    return this.stripe.invoices(user.id, id);
  }
}

/** Stripe's webhook: no key or session; the Stripe-Signature over the raw body is the authentication. */
@Controller('webhooks/incoming')
export class StripeWebhookController {
  constructor(private readonly stripe: StripeBillingService) {}

  @Public()
  @Post('stripe')
  @HttpCode(200)
  @KeepRawBody()
  receive(
    @Headers('stripe-signature') signature: string | undefined,
    @RawBody() rawBody: Buffer,
  ): Promise<WebhookReceipt> {
    return this.stripe.webhook(rawBody, signature);
  }
}
