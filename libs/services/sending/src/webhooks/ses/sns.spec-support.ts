/**
 * Test support for SNS intake, used by specs only (`*.spec-support.ts` is never built into dist): a locally generated RSA key and self-signed certificate
 * (openssl, into a temp dir, no network), SNS messages signed with them, and SES payloads shaped
 * like Amazon's documented examples.
 */
import { execFileSync } from 'node:child_process';
import { sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DeliveryNotification } from '../../delivery/delivery-notification.js';
import { DeliveryNotificationSink } from '../../delivery/delivery-notification.js';
import type { SnsMessage } from './sns-message.js';
import { snsStringToSign } from './sns-signature.js';

export interface TestKeyPair {
  keyPem: string;
  certPem: string;
}

/** An RSA-2048 key and a self-signed certificate valid for localhost/127.0.0.1 (usable for TLS and as an SNS signing cert). */
export function generateKeyPair(commonName = 'sns.us-east-1.amazonaws.com'): TestKeyPair {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-sns-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        '2',
        '-subj',
        `/CN=${commonName}`,
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'pipe' },
    );
    return {
      keyPem: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      certPem: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:ses-feedback';

type Unsigned<T> = Omit<T, 'Signature' | 'SignatureVersion' | 'SigningCertURL'>;

/** Signs an SNS message the way SNS does (v1: SHA1withRSA, v2: SHA256withRSA, base64). */
export function signSns<T extends Unsigned<SnsMessage>>(
  m: T,
  keyPem: string,
  certUrl: string,
  version: '1' | '2' = '1',
): T & SnsMessage {
  const unsigned = { ...m, SignatureVersion: version, SigningCertURL: certUrl, Signature: '' } as unknown as SnsMessage;
  const signature = sign(
    version === '1' ? 'sha1' : 'sha256',
    Buffer.from(snsStringToSign(unsigned), 'utf8'),
    keyPem,
  ).toString('base64');
  return { ...unsigned, Signature: signature } as T & SnsMessage;
}

/** An SNS Notification envelope around an SES notification (unsigned). */
export function snsNotification(
  sesMessage: object,
  messageId = 'a7c3c3c2-5b7f-5b0a-9d4e-1f1e0c4b2a11',
  subject?: string,
): Unsigned<SnsMessage> {
  return {
    Type: 'Notification',
    MessageId: messageId,
    TopicArn: TOPIC_ARN,
    ...(subject !== undefined ? { Subject: subject } : {}),
    Message: JSON.stringify(sesMessage),
    Timestamp: '2026-05-04T10:00:01.123Z',
    UnsubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${TOPIC_ARN}:c9135db0`,
  } as Unsigned<SnsMessage>;
}

export function snsSubscriptionConfirmation(subscribeUrl: string): Unsigned<SnsMessage> {
  return {
    Type: 'SubscriptionConfirmation',
    MessageId: '165545c9-2a5c-472c-8df2-7ff2be2b3b1b',
    Token:
      '2336412f37fb687f5d51e6e241d09c805a5a57b30d712f794cc5f6a988666d92768dd60a747ba6f3beb71854e285d6ad02428b09ceece29417f1f02d609c582afbacc99c583a916b9981dd2728f4ae6fdb82efd087cc3b7849e05798d2d2785c03b0879594eeac82c01f235d0e717736',
    TopicArn: TOPIC_ARN,
    Message: `You have chosen to subscribe to the topic ${TOPIC_ARN}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
    SubscribeURL: subscribeUrl,
    Timestamp: '2026-05-04T09:59:00.000Z',
  } as Unsigned<SnsMessage>;
}

const mail = {
  timestamp: '2026-05-04T09:59:58.000Z',
  source: 'news@mail.example.com',
  sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/mail.example.com',
  sourceIp: '203.0.113.10',
  sendingAccountId: '123456789012',
  messageId: '0100018f3a5b7c2d-9e8f7a6b-5c4d-3e2f-1a0b-9c8d7e6f5a4b-000000',
  destination: ['jane@example.org', 'bob@example.net'],
  headersTruncated: false,
  headers: [
    { name: 'From', value: 'News <news@mail.example.com>' },
    { name: 'To', value: 'jane@example.org, bob@example.net' },
    { name: 'Message-ID', value: '<em_01jd7x3k9q@mail.example.com>' },
    { name: 'X-Herald-Email-Id', value: 'em_01jd7x3k9q' },
    { name: 'Subject', value: 'May news' },
  ],
  commonHeaders: {
    from: ['News <news@mail.example.com>'],
    to: ['jane@example.org', 'bob@example.net'],
    messageId: '<em_01jd7x3k9q@mail.example.com>',
    subject: 'May news',
  },
};

/** SES notifications as Amazon documents them (https://docs.aws.amazon.com/ses/latest/dg/notification-examples.html). */
export const SES = {
  permanentBounce: {
    notificationType: 'Bounce',
    bounce: {
      bounceType: 'Permanent',
      bounceSubType: 'General',
      bouncedRecipients: [
        {
          emailAddress: 'jane@example.org',
          action: 'failed',
          status: '5.1.1',
          diagnosticCode: 'smtp; 550 5.1.1 user unknown',
        },
      ],
      timestamp: '2026-05-04T10:00:00.477Z',
      feedbackId: '0100018f3a5b8e1f-2b3c4d5e-6f70-8192-a3b4-c5d6e7f80912-000000',
      remoteMtaIp: '198.51.100.7',
      reportingMTA: 'dsn; a8-82.smtp-out.amazonses.com',
    },
    mail,
  },
  transientBounce: {
    notificationType: 'Bounce',
    bounce: {
      bounceType: 'Transient',
      bounceSubType: 'MailboxFull',
      bouncedRecipients: [
        {
          emailAddress: 'bob@example.net',
          action: 'delayed',
          status: '4.2.2',
          diagnosticCode: 'smtp; 452 4.2.2 mailbox full',
        },
      ],
      timestamp: '2026-05-04T10:00:00.500Z',
      feedbackId: '0100018f3a5b8e1f-aaaa-000000',
    },
    mail,
  },
  undeterminedBounce: {
    notificationType: 'Bounce',
    bounce: {
      bounceType: 'Undetermined',
      bounceSubType: 'Undetermined',
      bouncedRecipients: [{ emailAddress: 'bob@example.net' }],
      timestamp: '2026-05-04T10:00:00.600Z',
      feedbackId: '0100018f3a5b8e1f-bbbb-000000',
    },
    mail,
  },
  complaint: {
    notificationType: 'Complaint',
    complaint: {
      userAgent: 'ExampleCorp Feedback Loop (V0.01)',
      complainedRecipients: [{ emailAddress: 'jane@example.org' }],
      complaintFeedbackType: 'abuse',
      arrivalDate: '2026-05-04T10:01:00.000Z',
      timestamp: '2026-05-04T10:01:02.000Z',
      feedbackId: '0100018f3a5c0000-cccc-000000',
    },
    mail,
  },
  delivery: {
    notificationType: 'Delivery',
    delivery: {
      timestamp: '2026-05-04T10:00:00.300Z',
      processingTimeMillis: 546,
      recipients: ['jane@example.org'],
      smtpResponse: '250 ok:  Message 64111812 accepted',
      reportingMTA: 'a8-70.smtp-out.amazonses.com',
      remoteMtaIp: '198.51.100.9',
    },
    mail,
  },
  /** Event publishing (configuration set → SNS) names the type `eventType`. */
  eventPublishingBounce: {
    eventType: 'Bounce',
    bounce: {
      bounceType: 'Permanent',
      bounceSubType: 'OnAccountSuppressionList',
      bouncedRecipients: [
        {
          emailAddress: 'jane@example.org',
          action: 'failed',
          diagnosticCode:
            'Amazon SES did not send the message to this address because it is on the suppression list for your account.',
        },
      ],
      timestamp: '2026-05-04T10:00:00.700Z',
      feedbackId: '0100018f3a5b8e1f-dddd-000000',
    },
    mail,
  },
  /** What SES posts once when a topic is attached to an identity. */
  setup: {
    notificationType: 'AmazonSnsSubscriptionSucceeded',
    message: 'You have successfully subscribed your Amazon SNS topic to receive notifications from Amazon SES.',
  },
};

/** A sink that records what it is given and reports repeats by (source, notificationId). */
export class RecordingSink extends DeliveryNotificationSink {
  readonly calls: DeliveryNotification[] = [];
  private readonly seen = new Set<string>();

  async record(n: DeliveryNotification): Promise<{ duplicate: boolean; matched: number }> {
    this.calls.push(n);
    const key = `${n.source}:${n.notificationId}`;
    const duplicate = this.seen.has(key);
    this.seen.add(key);
    return { duplicate, matched: duplicate ? 0 : n.recipients.length };
  }
}
