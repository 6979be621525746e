import { createLogger, DomainError, invalidInput, type FieldProblem } from '@herald/core';
import { toFieldErrors } from '@herald/http';
import { Inject, Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DeliveryNotificationSink, type DeliveryNotification } from '../../delivery/delivery-notification.js';
import type { WebhookReceipt } from '../ses/ses-webhook.service.js';
import { WEBHOOKS_SETTINGS, type WebhooksSettings } from '../webhooks.settings.js';
import { GenericNotificationDto, MAX_GENERIC_BATCH } from './generic-notification.dto.js';
import { verifyGenericSignature } from './generic-signature.js';

const log = createLogger('sending.webhooks.generic');

export interface GenericBatchReceipt extends WebhookReceipt {
  results: { id: string; duplicate: boolean }[];
}

/** The generic relay format: HMAC-verified, validated, normalised, recorded in order. */
@Injectable()
export class GenericWebhookService {
  constructor(
    @Inject(WEBHOOKS_SETTINGS) private readonly settings: WebhooksSettings,
    @Inject(DeliveryNotificationSink) private readonly sink: DeliveryNotificationSink,
  ) {}

  /** Verifies, validates and records the exact bytes received (parsed here, whatever the Content-Type label). */
  async receive(signature: string | undefined, rawBody: Buffer): Promise<WebhookReceipt | GenericBatchReceipt> {
    const secret = this.settings.WEBHOOK_SIGNING_SECRET;
    if (!secret) {
      throw new DomainError(
        'unavailable',
        'SERVICE_UNAVAILABLE',
        'The generic webhook is not enabled on this Herald: WEBHOOK_SIGNING_SECRET is not set',
        {
          suggestion:
            'Set WEBHOOK_SIGNING_SECRET (at least 16 characters) and sign requests with it; see docs/webhooks.md.',
        },
      );
    }
    const check = verifyGenericSignature(secret, signature, rawBody);
    if (!check.ok) {
      log.warn('generic webhook signature refused', { reason: check.reason });
      throw new DomainError('unauthenticated', 'UNAUTHORIZED', check.reason, {
        suggestion:
          'Send X-Herald-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">; see docs/webhooks.md.',
      });
    }
    const body = parseJson(rawBody);
    const batch = Array.isArray(body);
    const items = await this.validate(batch ? body : [body], batch);
    const results: { id: string; duplicate: boolean }[] = [];
    for (const item of items) {
      const { duplicate } = await this.sink.record(toNotification(item, new Date()));
      results.push({ id: item.id, duplicate });
    }
    const duplicate = results.every((r) => r.duplicate);
    return batch ? { received: true, duplicate, results } : { received: true, duplicate };
  }

  private async validate(raw: unknown[], batch: boolean): Promise<GenericNotificationDto[]> {
    if (raw.length === 0)
      throw invalidInput([
        { field: 'body', message: 'send one notification or a non-empty array of them', code: 'too_small' },
      ]);
    if (raw.length > MAX_GENERIC_BATCH) {
      throw invalidInput([
        { field: 'body', message: `at most ${MAX_GENERIC_BATCH} notifications per request`, code: 'too_big' },
      ]);
    }
    const errors: FieldProblem[] = [];
    const items: GenericNotificationDto[] = [];
    for (const [i, value] of raw.entries()) {
      const prefix = batch ? `[${i}]` : '';
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        errors.push({ field: prefix || 'body', message: 'must be a notification object', code: 'invalid_type' });
        continue;
      }
      const dto = plainToInstance(GenericNotificationDto, value);
      const found = await validate(dto, { whitelist: true, forbidUnknownValues: false });
      errors.push(...toFieldErrors(found, prefix));
      items.push(dto);
    }
    if (errors.length > 0) throw invalidInput(errors);
    return items;
  }
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new DomainError('bad_request', 'MALFORMED_JSON', 'The request body is not valid JSON', {
      suggestion: 'Send one notification object or an array of them; see docs/webhooks.md.',
    });
  }
}

function toNotification(item: GenericNotificationDto, receivedAt: Date): DeliveryNotification {
  return {
    notificationId: item.id,
    source: 'generic',
    type: item.type,
    ...(item.type === 'bounce' ? { bounceType: item.bounceType } : {}),
    recipients: [item.email],
    ...(item.messageId ? { messageId: item.messageId.trim() } : {}),
    ...(item.emailId ? { emailId: item.emailId.trim() } : {}),
    ...(item.reason ? { reason: item.reason } : {}),
    occurredAt: item.occurredAt ? new Date(item.occurredAt) : receivedAt,
  };
}
