/**
 * What is stored of a received message (docs/inbound.md, "What is kept"): its header lines, text,
 * HTML and attachments, the attachments' content only within a byte budget. Pure: the parsing is
 * mailparser's (`inbound-parser.ts`), the writing the store's.
 */

/** Header lines kept per message (a message's own are a few dozen; relays add a few per hop). */
export const MAX_HEADER_LINES = 500;

/** One header line as received: its name (lower case) and its value, unfolded. */
export interface InboundHeader {
  name: string;
  value: string;
}

/** One attachment: what it is, and its content (base64) when it fit the budget. */
export interface InboundAttachment {
  filename: string | null;
  contentType: string;
  /** Decoded bytes. */
  size: number;
  /** Content-ID without the angle brackets (an inline part of the HTML). */
  contentId: string | null;
  disposition: 'attachment' | 'inline';
  /** Whether `content` is kept (false: it did not fit INBOUND_MAX_ATTACHMENT_BYTES). */
  stored: boolean;
  /** base64, when stored. */
  content?: string;
}

/** A message as mailparser reads it, reduced to what inbound mail keeps. */
export interface ParsedInbound {
  headerLines: readonly { key: string; line: string }[];
  subject?: string;
  from?: { address?: string; name?: string }[];
  messageId?: string;
  inReplyTo?: string;
  references?: string | string[];
  text?: string;
  html?: string | false;
  attachments: {
    filename?: string;
    contentType: string;
    size: number;
    cid?: string;
    contentDisposition?: string;
    content: Buffer;
  }[];
}

export interface InboundContent {
  headers: InboundHeader[];
  subject: string | null;
  /** Without the angle brackets; null when absent or longer than 255 characters. */
  messageId: string | null;
  text: string | null;
  html: string | null;
  attachments: InboundAttachment[];
}

/** Without NUL characters, which PostgreSQL text and jsonb cannot hold (a hostile message may carry them). */
export const withoutNul = (s: string): string => (s.includes('\u0000') ? s.replaceAll('\u0000', '') : s);

/** A header line `Name: value` (folded over several lines) as its name and unfolded value. */
export function headerOf(line: { key: string; line: string }): InboundHeader {
  const colon = line.line.indexOf(':');
  const value = colon >= 0 ? line.line.slice(colon + 1) : '';
  return { name: withoutNul(line.key.toLowerCase()), value: withoutNul(value.replace(/\r?\n[ \t]+/g, ' ').trim()) };
}

/** The Message-ID header's id without brackets; null when there is none or it is too long to index. */
export function ownMessageId(value: string | undefined): string | null {
  const id = (value === undefined ? undefined : withoutNul(value))?.trim().replace(/^<|>$/g, '').trim();
  return id && id.length <= 255 ? id : null;
}

/**
 * The stored content of a parsed message: every header line (up to MAX_HEADER_LINES), the subject
 * (at most 998 characters, the line limit), text and HTML as received, and each attachment's
 * description; attachment contents are kept in the message's order while their decoded bytes add up
 * to at most `maxAttachmentBytes`, and an attachment that does not fit is listed with `stored: false`.
 */
export function inboundContent(parsed: ParsedInbound, maxAttachmentBytes: number): InboundContent {
  let budget = maxAttachmentBytes;
  const attachments = parsed.attachments.map((a): InboundAttachment => {
    const stored = a.size <= budget;
    if (stored) budget -= a.size;
    return {
      filename: a.filename ? withoutNul(a.filename).slice(0, 255) : null,
      contentType: withoutNul(a.contentType).slice(0, 255),
      size: a.size,
      contentId: a.cid ? withoutNul(a.cid).replace(/^<|>$/g, '').slice(0, 255) : null,
      disposition: a.contentDisposition === 'inline' ? 'inline' : 'attachment',
      stored,
      ...(stored ? { content: a.content.toString('base64') } : {}),
    };
  });
  return {
    headers: parsed.headerLines.slice(0, MAX_HEADER_LINES).map(headerOf),
    subject: parsed.subject ? withoutNul(parsed.subject).slice(0, 998) : null,
    messageId: ownMessageId(parsed.messageId),
    text: parsed.text ? withoutNul(parsed.text) : null,
    html: parsed.html ? withoutNul(parsed.html) : null,
    attachments,
  };
}
