import { Public } from '@herald/http';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { SesWebhookService, type WebhookReceipt } from './ses-webhook.service.js';

/**
 * Amazon SES bounce, complaint and delivery notifications through an Amazon SNS HTTPS subscription.
 * Public: authenticated by the SNS message signature, not by Herald credentials.
 */
@Controller('webhooks')
export class SesWebhookController {
  constructor(private readonly ses: SesWebhookService) {}

  /** SNS posts JSON as `text/plain` (parsed here from the string) — or `application/json` from a forwarding proxy. */
  @Public()
  @Post('ses')
  @HttpCode(200)
  receive(@Body() body: unknown): Promise<WebhookReceipt> {
    return this.ses.receive(body);
  }
}
