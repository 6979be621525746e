/** The envelope Amazon SNS posts to an HTTP/S subscription (https://docs.aws.amazon.com/sns/latest/dg/http-header.html). */
export interface SnsMessageBase {
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: '1' | '2';
  Signature: string;
  SigningCertURL: string;
}

export interface SnsNotification extends SnsMessageBase {
  Type: 'Notification';
  Subject?: string;
  UnsubscribeURL?: string;
}

export interface SnsSubscriptionMessage extends SnsMessageBase {
  Type: 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';
  SubscribeURL: string;
  Token: string;
}

export type SnsMessage = SnsNotification | SnsSubscriptionMessage;

/** Why an SNS body is not an SNS message. */
export class SnsMessageError extends Error {}

const TYPES = ['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'];

/**
 * Reads an SNS POST body — a JSON string (SNS sends `Content-Type: text/plain`) or an already parsed
 * object — into a message, checking every field the signature covers is present and a string.
 */
export function parseSnsMessage(body: unknown): SnsMessage {
  let value = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      value = JSON.parse(body.toString());
    } catch {
      throw new SnsMessageError('The body is not JSON');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SnsMessageError('The body is not an SNS message object');
  const m = value as Record<string, unknown>;
  if (typeof m.Type !== 'string' || !TYPES.includes(m.Type))
    throw new SnsMessageError(`Unknown SNS message Type ${JSON.stringify(m.Type)}`);
  const required = ['MessageId', 'TopicArn', 'Message', 'Timestamp', 'SignatureVersion', 'Signature', 'SigningCertURL'];
  if (m.Type !== 'Notification') required.push('SubscribeURL', 'Token');
  const missing = required.filter((k) => typeof m[k] !== 'string' || m[k] === '');
  if (missing.length > 0) throw new SnsMessageError(`The SNS message lacks ${missing.join(', ')}`);
  if (m.Subject !== undefined && m.Subject !== null && typeof m.Subject !== 'string')
    throw new SnsMessageError('Subject must be a string');
  if (m.SignatureVersion !== '1' && m.SignatureVersion !== '2')
    throw new SnsMessageError(`Unsupported SignatureVersion ${JSON.stringify(m.SignatureVersion)}`);
  const message = { ...m };
  if (message.Subject === null) delete message.Subject;
  return message as unknown as SnsMessage;
}
