import { createLogger, DomainError, forbiddenError, invalidInput } from '@herald/core';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DeliveryNotificationSink } from '../../delivery/delivery-notification.js';
import { WEBHOOKS_SETTINGS, type WebhooksSettings } from '../webhooks.settings.js';
import { SesNotificationError, sesDeliveryNotification } from './ses-notification.js';
import { SnsHttpClient } from './sns-https-client.js';
import { parseSnsMessage, SnsMessageError, type SnsMessage, type SnsSubscriptionMessage } from './sns-message.js';
import { isHttpsUrl, SnsVerificationError, SnsVerifier } from './sns-verifier.js';

const log = createLogger('sending.webhooks.ses');

export interface WebhookReceipt {
  received: true;
  duplicate: boolean;
  /** Present when the message was valid but carried nothing to record (subscription messages, other SES events). */
  ignored?: string;
  /** SubscriptionConfirmation: the subscription was confirmed. */
  confirmed?: boolean;
}

const forbidden = (message: string) =>
  forbiddenError('FORBIDDEN', message, 'Only Amazon SNS, with a valid signature, may post to /webhooks/ses.');

/** POST /webhooks/ses: Amazon SES notifications delivered by Amazon SNS, verified, then recorded. */
@Injectable()
export class SesWebhookService implements OnApplicationBootstrap {
  private readonly verifier: SnsVerifier;
  private readonly subscribeUrl: RegExp;
  /** The accepted topics; empty: every message is refused (closed by default). */
  private readonly topics: ReadonlySet<string>;

  constructor(
    @Inject(WEBHOOKS_SETTINGS) settings: WebhooksSettings,
    @Inject(SnsHttpClient) private readonly http: SnsHttpClient,
    @Inject(DeliveryNotificationSink) private readonly sink: DeliveryNotificationSink,
  ) {
    this.verifier = new SnsVerifier(http, settings.SNS_CERT_URL_PATTERN);
    this.subscribeUrl = new RegExp(settings.SNS_SUBSCRIBE_URL_PATTERN);
    this.topics = new Set(settings.SES_SNS_TOPIC_ARNS ?? []);
  }

  /**
   * Once per start: without a topic list nothing is accepted (any AWS account can create a topic
   * whose messages Amazon signs, so a valid signature alone proves nothing about the sender).
   */
  onApplicationBootstrap(): void {
    if (this.topics.size === 0)
      log.warn(
        'SES_SNS_TOPIC_ARNS is empty: /webhooks/ses refuses every notification (and every subscription confirmation); ' +
          'list your SES feedback topics in it (docs/webhooks.md)',
      );
  }

  async receive(body: unknown): Promise<WebhookReceipt> {
    let message: SnsMessage;
    try {
      message = parseSnsMessage(body);
    } catch (err) {
      if (err instanceof SnsMessageError)
        throw new DomainError('bad_request', 'BAD_REQUEST', `Not an Amazon SNS message: ${err.message}`);
      throw err;
    }
    if (!this.topics.has(message.TopicArn)) {
      log.warn('SNS message from a topic not in SES_SNS_TOPIC_ARNS refused', {
        topicArn: message.TopicArn,
        type: message.Type,
        configuredTopics: this.topics.size,
      });
      // the same answer whether the list is empty or not: a caller learns nothing of the configuration
      throw forbidden(`Topic ${message.TopicArn} is not accepted here (SES_SNS_TOPIC_ARNS)`);
    }
    try {
      await this.verifier.verify(message);
    } catch (err) {
      if (!(err instanceof SnsVerificationError)) throw err;
      log.warn('SNS message refused', {
        reason: err.message,
        topicArn: message.TopicArn,
        messageId: message.MessageId,
      });
      throw forbidden(err.message);
    }

    switch (message.Type) {
      case 'SubscriptionConfirmation':
        await this.confirm(message);
        return { received: true, duplicate: false, confirmed: true };
      case 'UnsubscribeConfirmation':
        log.warn('SNS topic unsubscribed this endpoint; bounces and complaints will stop arriving', {
          topicArn: message.TopicArn,
        });
        return { received: true, duplicate: false, ignored: 'UnsubscribeConfirmation' };
      case 'Notification':
        return this.record(message.MessageId, message.Message, message.Timestamp);
    }
  }

  private async record(messageId: string, body: string, timestamp: string): Promise<WebhookReceipt> {
    let notification;
    try {
      notification = sesDeliveryNotification(messageId, body, timestamp);
    } catch (err) {
      if (!(err instanceof SesNotificationError)) throw err;
      log.warn('unreadable SES notification', { reason: err.message, messageId });
      throw invalidInput(
        [{ field: 'Message', message: err.message, code: 'invalid' }],
        'The SNS Message is not a readable SES notification',
      );
    }
    if (!notification)
      return { received: true, duplicate: false, ignored: 'not a Bounce, Complaint or Delivery notification' };
    const { duplicate } = await this.sink.record(notification);
    return { received: true, duplicate };
  }

  /** Confirms a subscription by GET SubscribeURL — only to an allowed SNS host. */
  private async confirm(m: SnsSubscriptionMessage): Promise<void> {
    if (!isHttpsUrl(m.SubscribeURL) || !this.subscribeUrl.test(m.SubscribeURL)) {
      log.warn('SNS SubscribeURL refused', { subscribeUrl: m.SubscribeURL, topicArn: m.TopicArn });
      throw forbidden(`SubscribeURL ${m.SubscribeURL} is not an allowed SNS URL`);
    }
    let status: number;
    try {
      status = (await this.http.get(m.SubscribeURL)).status;
    } catch (err) {
      status = 0;
      log.warn('SNS subscription confirmation failed', { topicArn: m.TopicArn, error: (err as Error).message });
    }
    if (status < 200 || status >= 300) {
      throw new DomainError(
        'unavailable',
        'SERVICE_UNAVAILABLE',
        `Confirming the subscription to ${m.TopicArn} failed${status ? ` (SNS answered ${status})` : ''}`,
        { suggestion: 'SNS retries the confirmation; or confirm it in the AWS console.' },
      );
    }
    log.info('SNS subscription confirmed', { topicArn: m.TopicArn });
  }
}
