import { InternalClient } from '@herald/auth';
import type { BillingCategory } from '@herald/contracts';
import { HERALD_RUNTIME, internalBaseUrl, type HeraldRuntime } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { SENDING } from '../consumer.js';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';

/**
 * The one check every way of sending makes before it accepts emails (/v1/send, and the internal
 * intake of campaigns and workflows): may this project send `count` more emails of `category` now?
 * The gateway owns caps, consumption and sender reputation, so this asks it every time (internal
 * HTTP, ~1 ms on loopback) rather than keeping a copy that could refuse what the owner would accept
 * right after an OWNER raised a cap or lifted a suspension (issue 18's read-your-writes rule).
 * Throws the owner's refusal as the domain error: 429 BILLING_LIMIT_EXCEEDED (category, reset time,
 * Retry-After) or 403 PROJECT_SENDING_SUSPENDED.
 */
@Injectable()
export class SendAdmission {
  private readonly client: InternalClient;

  constructor(@Inject(SENDING_SETTINGS) settings: SendingSettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    const baseUrl = () => internalBaseUrl(runtime, settings.GATEWAY_URL ?? settings.APP_URL, 'GATEWAY_URL');
    this.client = new InternalClient(SENDING, 'gateway', baseUrl, runtime.internalJwtSecret, 5_000);
  }

  async admit(projectId: string, category: BillingCategory, count: number, requestId?: string): Promise<void> {
    if (count <= 0) return;
    await this.client.post(projectId, '/internal/billing/admission', { category, count }, requestId);
  }
}
