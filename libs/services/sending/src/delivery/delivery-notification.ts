/**
 * What the email infrastructure reports about mail Herald handed to it (bounce and complaint
 * intake: Amazon SES through SNS, or the HMAC-signed generic format), in one shape.
 */
export interface DeliveryNotification {
  /** Unique id of the notification at its source (SNS MessageId, generic `id`): a repeat changes nothing. */
  notificationId: string;
  source: 'ses' | 'generic';
  type: 'bounce' | 'complaint' | 'delivery';
  /** Bounces: permanent (hard: suppress) or transient (soft). */
  bounceType?: 'permanent' | 'transient';
  /** Affected recipient addresses. */
  recipients: string[];
  /** Message-ID header of the original email (with or without angle brackets), when reported. */
  messageId?: string;
  /** Herald's email id, when the relay echoes it (generic format). */
  emailId?: string;
  /** The relay's diagnostic words. */
  reason?: string;
  occurredAt: Date;
}

/** Takes normalised notifications: matches them to emails, suppresses, unsubscribes, emits email.* events. */
export abstract class DeliveryNotificationSink {
  abstract record(notification: DeliveryNotification): Promise<{ duplicate: boolean; matched: number }>;
}
