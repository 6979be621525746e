import { verify, type X509Certificate } from 'node:crypto';
import type { SnsMessage } from './sns-message.js';

/**
 * The string SNS signs: `name\nvalue\n` for each signed field present, in this byte order
 * (https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message-verify-message-signature.html).
 * Notifications: Message, MessageId, Subject (only when present), Timestamp, TopicArn, Type.
 * (Un)subscribe confirmations: Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type.
 */
export function snsStringToSign(m: SnsMessage): string {
  const fields =
    m.Type === 'Notification'
      ? (['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const)
      : (['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const);
  let out = '';
  for (const name of fields) {
    const value = (m as unknown as Record<string, unknown>)[name];
    if (typeof value === 'string') out += `${name}\n${value}\n`;
  }
  return out;
}

/** SignatureVersion 1 is RSA with SHA1, 2 is RSA with SHA256, both over {@link snsStringToSign}. */
export function verifySnsSignature(m: SnsMessage, cert: X509Certificate): boolean {
  const algorithm = m.SignatureVersion === '1' ? 'sha1' : m.SignatureVersion === '2' ? 'sha256' : undefined;
  if (!algorithm) return false;
  const signature = Buffer.from(m.Signature, 'base64');
  if (signature.length === 0) return false;
  try {
    return verify(algorithm, Buffer.from(snsStringToSign(m), 'utf8'), cert.publicKey, signature);
  } catch {
    return false;
  }
}
