import type { DeliveryNotification } from '../../delivery/delivery-notification.js';

/** Why an SNS Notification's Message is not an SES notification Herald can read (answered 422). */
export class SesNotificationError extends Error {}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** Herald's own header, when the sender adds it: names the email exactly, whatever the relay did to Message-ID. */
export const EMAIL_ID_HEADER = 'X-Herald-Email-Id';

/**
 * Reads the SES notification an SNS Notification carries (`Message`, JSON): Bounce, Complaint and
 * Delivery, in the identity-notification form (`notificationType`) and the event-publishing form
 * (`eventType`). Other SES messages (the topic-setup `AmazonSnsSubscriptionSucceeded`, Send, Open,
 * Click…) answer null: received and ignored.
 * https://docs.aws.amazon.com/ses/latest/dg/notification-contents.html
 */
export function sesDeliveryNotification(
  snsMessageId: string,
  message: string,
  snsTimestamp: string,
): DeliveryNotification | null {
  let body: unknown;
  try {
    body = JSON.parse(message);
  } catch {
    throw new SesNotificationError('The SNS Message is not JSON: is this topic fed by Amazon SES?');
  }
  if (!isObject(body)) throw new SesNotificationError('The SNS Message is not an SES notification object');
  const kind = str(body.notificationType) ?? str(body.eventType);
  if (kind !== 'Bounce' && kind !== 'Complaint' && kind !== 'Delivery') return null;

  const mail = isObject(body.mail) ? body.mail : {};
  const base = {
    notificationId: snsMessageId,
    source: 'ses' as const,
    ...messageIds(mail),
  };

  if (kind === 'Bounce') {
    const bounce = objectField(body, 'bounce');
    const recipients = addresses(bounce.bouncedRecipients, (r) => r.emailAddress);
    const diagnostics = list(bounce.bouncedRecipients)
      .map((r) => str(r.diagnosticCode))
      .filter((d): d is string => d !== undefined);
    const type = str(bounce.bounceType);
    const subType = str(bounce.bounceSubType);
    return {
      ...base,
      type: 'bounce',
      bounceType: type === 'Permanent' ? 'permanent' : 'transient',
      recipients,
      reason: reason([`${type ?? 'Undetermined'}${subType ? `/${subType}` : ''}`, ...new Set(diagnostics)]),
      occurredAt: when(bounce.timestamp, snsTimestamp),
    };
  }
  if (kind === 'Complaint') {
    const complaint = objectField(body, 'complaint');
    return {
      ...base,
      type: 'complaint',
      recipients: addresses(complaint.complainedRecipients, (r) => r.emailAddress),
      reason: reason([
        str(complaint.complaintFeedbackType) ?? 'complaint',
        str(complaint.complaintSubType),
        str(complaint.userAgent),
      ]),
      occurredAt: when(complaint.timestamp, snsTimestamp),
    };
  }
  const delivery = objectField(body, 'delivery');
  const recipients = Array.isArray(delivery.recipients)
    ? delivery.recipients.map(str).filter((r): r is string => r !== undefined)
    : [];
  if (recipients.length === 0) throw new SesNotificationError('The SES Delivery notification names no recipients');
  return {
    ...base,
    type: 'delivery',
    recipients,
    reason: reason([str(delivery.smtpResponse)]),
    occurredAt: when(delivery.timestamp, snsTimestamp),
  };
}

function objectField(body: Json, name: string): Json {
  const value = body[name];
  if (!isObject(value)) throw new SesNotificationError(`The SES notification lacks its "${name}" object`);
  return value;
}

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

function addresses(v: unknown, pick: (r: Json) => unknown): string[] {
  const out = list(v)
    .map((r) => str(pick(r)))
    .filter((a): a is string => a !== undefined);
  if (out.length === 0) throw new SesNotificationError('The SES notification names no recipients');
  return [...new Set(out)];
}

/** The original Message-ID header (SES rewrites the sent one; commonHeaders/headers keep Herald's), else SES's own id. */
function messageIds(mail: Json): { messageId?: string; emailId?: string } {
  const headers = list(mail.headers);
  const header = (name: string) => str(headers.find((h) => str(h.name)?.toLowerCase() === name.toLowerCase())?.value);
  const common = isObject(mail.commonHeaders) ? mail.commonHeaders : {};
  const messageId = str(common.messageId) ?? header('Message-ID') ?? str(mail.messageId);
  const emailId = header(EMAIL_ID_HEADER);
  return { ...(messageId ? { messageId } : {}), ...(emailId ? { emailId } : {}) };
}

function when(value: unknown, fallback: string): Date {
  for (const v of [value, fallback]) {
    const t = typeof v === 'string' ? Date.parse(v) : NaN;
    if (!Number.isNaN(t)) return new Date(t);
  }
  return new Date();
}

const reason = (parts: (string | undefined)[]): string | undefined => {
  const text = parts.filter((p) => p !== undefined && p !== '').join('; ');
  return text === '' ? undefined : text.slice(0, 1000);
};
