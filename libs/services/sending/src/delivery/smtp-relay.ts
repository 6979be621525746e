import { Readable } from 'node:stream';
import nodemailer, { type Transporter } from 'nodemailer';
import type { DkimKey } from '../senders/sender-domains.js';
import { SmtpPool } from './smtp-pool.js';

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

export interface RelayAnswer {
  response: string;
}

/** What an SMTP failure means for the email. */
export type FailureKind = 'permanent' | 'temporary' | 'in-doubt';

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
 * The SMTP side of delivery: composes and DKIM-signs a message (nodemailer's own MIME composer and
 * DKIM signer), then hands it to a pooled SMTP connection. The message stream holds back its end —
 * and with it the final `.` of DATA, the moment the relay takes responsibility — until
 * `beforeHandoff` has recorded the hand-off. A crash before that record leaves an unfinished DATA
 * the relay discards, so the email may be sent again safely; after it, the email is never resent.
 */
export class SmtpRelay {
  private readonly composer: Transporter;
  private readonly pool: SmtpPool;

  constructor(url: string, options: { poolSize: number; maxMessages: number }) {
    this.composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
    this.pool = new SmtpPool({ url, size: options.poolSize, maxMessages: options.maxMessages });
  }

  /** The signed RFC 5322 message, CRLF line ends. */
  async compose(message: OutgoingMessage, dkim: DkimKey | null): Promise<Buffer> {
    const info = (await this.composer.sendMail({
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
      // nodemailer hands privateKey to crypto's Sign#sign, which takes a KeyObject (its typings say string)
      ...(dkim
        ? {
            dkim: {
              domainName: dkim.domainName,
              keySelector: dkim.keySelector,
              privateKey: dkim.privateKey as unknown as string,
              headerFieldNames: SIGNED_HEADERS,
            },
          }
        : {}),
    })) as { message: Buffer };
    return info.message;
  }

  async deliver(
    envelope: { from: string; to: string },
    raw: Buffer,
    beforeHandoff: () => Promise<void>,
    urgent = false,
  ): Promise<RelayAnswer> {
    let sent = false;
    let holding = false;
    const stream = new Readable({
      read() {
        if (!sent) {
          sent = true;
          this.push(raw);
          return;
        }
        if (holding) return;
        holding = true;
        beforeHandoff().then(
          () => this.push(null),
          (err: Error) => this.destroy(err),
        );
      },
    });
    const info = await this.pool.send(envelope, stream, urgent);
    return { response: info.response };
  }

  /** Permanent (5xx): bounce. Temporary (4xx, connection trouble before the hand-off): retry. In doubt: the final dot may have been taken. */
  static classify(err: unknown, handedOff: boolean): FailureKind {
    const code = (err as { responseCode?: number }).responseCode;
    if (typeof code === 'number' && code >= 500) return 'permanent';
    if (typeof code === 'number' && code >= 400) return 'temporary';
    return handedOff ? 'in-doubt' : 'temporary';
  }

  close(): void {
    this.pool.close();
    this.composer.close();
  }
}
