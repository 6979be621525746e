import type { InboundAttachment, InboundHeader } from './inbound-content.js';
import type { InboundRow } from './inbound.store.js';

/** A received message in `GET /inbound` (without its content). */
export interface InboundSummaryView {
  id: string;
  /** The contact whose address sent it; null when the sender is no contact of the project. */
  contactId: string | null;
  from: { email: string | null; name: string | null };
  /** MAIL FROM ('' for the null sender of a bounce). */
  envelopeFrom: string;
  /** The project's addresses it was delivered to. */
  to: string[];
  subject: string | null;
  messageId: string | null;
  /** The project's email it answers (In-Reply-To / References), and that email's campaign or workflow. */
  inReplyToEmailId: string | null;
  campaignId: string | null;
  workflowId: string | null;
  attachmentCount: number;
  /** Bytes as received. */
  size: number;
  receivedAt: string;
}

/** `GET /inbound/:id`: the summary and the content: text, HTML (as received: sanitise before showing it), headers, attachments. */
export interface InboundMessageView extends InboundSummaryView {
  text: string | null;
  html: string | null;
  headers: InboundHeader[];
  /** Each attachment, with its content (base64) when it was kept (`stored`). */
  attachments: InboundAttachment[];
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function inboundSummaryView(r: InboundRow): InboundSummaryView {
  return {
    id: r.id as string,
    contactId: str(r.contact_id),
    from: { email: str(r.from_email), name: str(r.from_name) },
    envelopeFrom: r.envelope_from as string,
    to: r.recipients as string[],
    subject: str(r.subject),
    messageId: str(r.message_id),
    inReplyToEmailId: str(r.in_reply_to_email_id),
    campaignId: str(r.campaign_id),
    workflowId: str(r.workflow_id),
    attachmentCount: Array.isArray(r.attachments) ? r.attachments.length : Number(r.attachment_count ?? 0),
    size: r.size as number,
    receivedAt: new Date(r.created_at as Date | string).toISOString(),
  };
}

export function inboundMessageView(r: InboundRow): InboundMessageView {
  return {
    ...inboundSummaryView(r),
    text: str(r.text),
    html: str(r.html),
    headers: r.headers as InboundHeader[],
    attachments: r.attachments as InboundAttachment[],
  };
}
