import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { ParsedInbound } from './inbound-content.js';

/** A message mailparser could not read: refused for good (554), as sending it again cannot help. */
export class UnreadableMessageError extends Error {
  constructor(reason: string) {
    super(`unreadable message: ${reason}`);
    this.name = 'UnreadableMessageError';
  }
}

/**
 * Reads a received message with mailparser (ADR 0024): headers, text, HTML and attachments, cid:
 * links left as they are (no data: URIs inlined), no text made from HTML or HTML from text.
 */
export async function parseInbound(raw: Buffer): Promise<ParsedInbound> {
  let mail: ParsedMail;
  try {
    mail = await simpleParser(raw, {
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipImageLinks: true,
      skipTextLinks: true,
    });
  } catch (err) {
    throw new UnreadableMessageError((err as Error).message);
  }
  const from = (mail.from as AddressObject | undefined)?.value ?? [];
  return {
    headerLines: mail.headerLines,
    ...(mail.subject !== undefined ? { subject: mail.subject } : {}),
    from: from.map((a) => ({ ...(a.address ? { address: a.address } : {}), ...(a.name ? { name: a.name } : {}) })),
    ...(mail.messageId ? { messageId: mail.messageId } : {}),
    ...(mail.inReplyTo ? { inReplyTo: mail.inReplyTo } : {}),
    ...(mail.references ? { references: mail.references } : {}),
    ...(mail.text !== undefined ? { text: mail.text } : {}),
    html: mail.html,
    attachments: mail.attachments.map((a) => ({
      ...(a.filename ? { filename: a.filename } : {}),
      contentType: a.contentType,
      size: a.size,
      ...(a.cid ? { cid: a.cid } : {}),
      ...(a.contentDisposition ? { contentDisposition: a.contentDisposition } : {}),
      content: a.content,
    })),
  };
}
