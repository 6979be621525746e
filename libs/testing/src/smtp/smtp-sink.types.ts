// The loopback SMTP sink's public shapes (smtp-sink.ts): what a test captures, rules, options, the sink.
import type { HeaderLines, HeaderValue } from 'mailparser';

export interface CapturedAttachment {
  filename?: string;
  contentType: string;
  contentDisposition?: string;
  /** Content-ID without the angle brackets, for inline parts. */
  cid?: string;
  content: Buffer;
  size: number;
}

export interface CapturedMessage {
  /** Order of arrival, starting at 1 (not reset by clear()). */
  seq: number;
  /** Envelope sender (MAIL FROM), '' for the null sender. */
  from: string;
  /** Envelope recipients (RCPT TO) that were accepted. */
  to: string[];
  /** The message exactly as received after DATA (dot-unstuffed, CRLF line ends as sent). */
  raw: Buffer;
  receivedAt: Date;
  subject?: string;
  messageId?: string;
  /** The text/html part as sent (cid: links kept). */
  html?: string;
  /** The text/plain part as sent; not derived from html when the message has no text part. */
  text?: string;
  /** Parsed header values keyed by lower-case header name (mailparser's structured values). */
  headers: Map<string, HeaderValue>;
  /** Unparsed header lines in message order ({ key: lower-case name, line: full folded line }). */
  headerLines: HeaderLines;
  attachments: CapturedAttachment[];
}

export type SmtpRecipientMatcher = string | RegExp | ((address: string) => boolean);

export interface SmtpRejectRule {
  /** Which envelope recipients the rule applies to; a string matches the whole address case-insensitively. Omitted: all. */
  recipient?: SmtpRecipientMatcher;
  /** Answer at RCPT TO (default) or at the end of DATA (the whole message is refused if any recipient matches). */
  stage?: 'rcpt' | 'data';
  /** SMTP reply code, e.g. 550 (permanent) or 451 (temporary). */
  code: number;
  /** Reply text (without the code). */
  message?: string;
  /** Apply to this many commands only, then the rule expires (e.g. 1 to simulate a single temporary failure). */
  times?: number;
}

/**
 * A faulty relay (issue 44's faulty-relay scenario), for the messages whose recipient matches (a
 * function matcher may decide at random, e.g. `() => Math.random() < 0.01`):
 * `reset-mid-data` destroys the connection at the first bytes of DATA (the message is not taken);
 * `reset-after-data` captures the message, then destroys the connection instead of answering (the
 * relay took it, the client never hears so); `slow` answers `delayMs` late.
 */
export interface SmtpFaultRule {
  recipient?: SmtpRecipientMatcher;
  fault: 'reset-mid-data' | 'reset-after-data' | 'slow';
  /** The delay of a `slow` answer (default 1 000 ms). */
  delayMs?: number;
  /** Apply to this many messages only, then the rule expires. */
  times?: number;
}

export interface SmtpSinkOptions {
  /** Port to bind on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Host name the server announces in its greeting. */
  name?: string;
  /** Advertised SIZE limit in bytes; larger messages get 552. Default: unlimited. */
  maxMessageSize?: number;
  /**
   * A slow relay: the message is captured as soon as its final dot arrives, but the 250 answer
   * comes this many milliseconds later (a client that dies meanwhile has handed the message over
   * without hearing so).
   */
  replyDelayMs?: number;
}

export type SmtpMessagePredicate = (message: CapturedMessage) => boolean;

export interface SmtpWaitForQuery {
  /** Only messages that satisfy this count (default: every message). */
  where?: SmtpMessagePredicate;
  /** How many matching messages to wait for (default 1). */
  count?: number;
}

export interface SmtpSink {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** smtp://127.0.0.1:port */
  readonly url: string;
  /** Captured messages in order of arrival; a message is here (parsed) before the client gets its 250. */
  readonly messages: CapturedMessage[];
  /**
   * Resolves with the matching messages once there are enough of them:
   * a number waits for that many messages in total, a predicate for at least one match,
   * `{ where, count }` for `count` matches. Rejects after timeoutMs (default 10 000).
   */
  waitFor(query: number | SmtpMessagePredicate | SmtpWaitForQuery, timeoutMs?: number): Promise<CapturedMessage[]>;
  /** Make RCPT TO or DATA answer with the given code for matching recipients. Later rules are checked first. */
  reject(rule: SmtpRejectRule): void;
  /** Make matching messages meet a faulty relay (see SmtpFaultRule). Later rules are checked first. */
  fault(rule: SmtpFaultRule): void;
  /** Remove every reject and fault rule. */
  clearRejections(): void;
  /** Forget the captured messages. */
  clear(): void;
  /** Close the listener and every open connection. */
  stop(): Promise<void>;
}
