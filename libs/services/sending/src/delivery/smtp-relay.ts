import { Readable } from 'node:stream';
import type { DkimKey } from '../senders/sender-domains.js';
import type { OutgoingMessage } from './compose-message.js';
import { createMessageComposer, type MessageComposer } from './message-composers.js';
import { SmtpPool } from './smtp-pool.js';

export type { OutgoingMessage } from './compose-message.js';

export interface RelayAnswer {
  response: string;
}

/** What an SMTP failure means for the email. */
export type FailureKind = 'permanent' | 'temporary' | 'in-doubt';

/**
 * The SMTP side of delivery: composes and DKIM-signs a message (nodemailer's own MIME composer and
 * DKIM signer, in compose threads: `createMessageComposer`), then hands it to a pooled SMTP connection. The message stream holds back its end —
 * and with it the final `.` of DATA, the moment the relay takes responsibility — until
 * `beforeHandoff` has recorded the hand-off. A crash before that record leaves an unfinished DATA
 * the relay discards, so the email may be sent again safely; after it, the email is never resent.
 */
export class SmtpRelay {
  private readonly composer: MessageComposer;
  private readonly pool: SmtpPool;

  constructor(url: string, options: { poolSize: number; maxMessages: number; composeThreads: number }) {
    this.composer = createMessageComposer(options.composeThreads);
    this.pool = new SmtpPool({ url, size: options.poolSize, maxMessages: options.maxMessages });
  }

  /** The signed RFC 5322 message, CRLF line ends; an `urgent` one (the normal lane's) before every other waiting. */
  compose(message: OutgoingMessage, dkim: DkimKey | null, urgent = false): Promise<Buffer> {
    return this.composer.compose({ message, dkim }, urgent);
  }

  /** Whether composing leaves the event loop free. */
  get composesOffThread(): boolean {
    return this.composer.offThread;
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

  async close(): Promise<void> {
    this.pool.close();
    await this.composer.close();
  }
}
