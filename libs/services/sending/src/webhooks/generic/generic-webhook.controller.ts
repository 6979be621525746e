import { Public } from '@herald/http';
import { Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { KeepRawBody, RawBody } from '@herald/http';
import type { WebhookReceipt } from '../ses/ses-webhook.service.js';
import { SIGNATURE_HEADER } from './generic-signature.js';
import { GenericWebhookService } from './generic-webhook.service.js';

/** Bounces, complaints and deliveries from any other relay, in Herald's HMAC-signed format (docs/webhooks.md). */
@Controller('webhooks')
export class GenericWebhookController {
  constructor(private readonly generic: GenericWebhookService) {}

  /** JSON (one notification or an array), signed with X-Herald-Signature; answers 200 {received, duplicate}. */
  @Public()
  @Post('generic')
  @HttpCode(200)
  @KeepRawBody()
  receive(
    @Headers(SIGNATURE_HEADER) signature: string | undefined,
    @RawBody() rawBody: Buffer,
  ): Promise<WebhookReceipt> {
    return this.generic.receive(signature, rawBody);
  }
}
