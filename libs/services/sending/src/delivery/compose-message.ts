import nodemailer, { type Transporter } from 'nodemailer';
import type { DkimKey } from '../senders/sender-domains.js';
import { signDkim } from './dkim-signature.js';

export interface OutgoingMessage {
  messageId: string;
  from: { email: string; name?: string | null };
  to: { email: string; name?: string | null };
  replyTo?: string | null;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  attachments: { filename: string; content: string; contentType?: string }[];
}

/** What composing one message takes: the message and the sender domain's DKIM key (a KeyObject crosses threads as is). */
export interface ComposeTask {
  message: OutgoingMessage;
  dkim: DkimKey | null;
}

/** A compose thread's answer for one message of a hand-off: its bytes, or why it could not be composed. */
export type ComposeReply = { raw: Uint8Array } | { failed: string };

/**
 * Headers the DKIM signature covers: nodemailer's default list (RFC 6376 §5.4) plus
 * List-Unsubscribe-Post, which RFC 8058 requires signed for one-click unsubscribe to be honoured.
 */
const SIGNED_HEADERS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:' +
  'Content-ID:Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID:' +
  'In-Reply-To:References:List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:' +
  'List-Owner:List-Archive:OTP-Token';

/**
 * A composer with nodemailer's own MIME builder: the RFC 5322 message, CRLF line ends, DKIM-signed
 * as nodemailer's signer would (`signDkim`: the same bytes, without its streams).
 */
export function messageComposer(): { compose(task: ComposeTask): Promise<Buffer>; close(): void } {
  const transport: Transporter = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  return {
    async compose({ message, dkim }) {
      const info = (await transport.sendMail({
        messageId: `<${message.messageId}>`,
        from: message.from.name ? { name: message.from.name, address: message.from.email } : message.from.email,
        to: message.to.name ? { name: message.to.name, address: message.to.email } : message.to.email,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: message.headers,
        attachments: message.attachments.map((a) => ({
          filename: a.filename,
          content: a.content,
          encoding: 'base64',
          ...(a.contentType ? { contentType: a.contentType } : {}),
        })),
        disableFileAccess: true,
        disableUrlAccess: true,
      })) as { message: Buffer };
      return dkim ? signDkim(info.message, dkim, SIGNED_HEADERS) : info.message;
    },
    close: () => transport.close(),
  };
}
