import type { EmailEvent, EmailEventType } from './email-event.entity.js';
import type { Email, EmailStatus } from './email.entity.js';

/** What became of an email, as the API shows it. */
export const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'bounced', 'failed', 'skipped'] as const;
export type PublicEmailStatus = (typeof EMAIL_STATUSES)[number];

/** Why an email was not sent: a marketing email to an unsubscribed contact, or a suppressed address. */
export type SkipReason = 'unsubscribed' | 'suppressed';

/** The status of one email in the /v1/send answer. */
export type SendOutcome = { status: 'queued' } | { status: 'skipped'; reason: SkipReason };

/** The stored status as the API names it (`suppressed` and `skipped` are both `skipped`, with the reason). */
export function publicStatus(status: EmailStatus): { status: PublicEmailStatus; reason?: SkipReason } {
  switch (status) {
    case 'suppressed':
      return { status: 'skipped', reason: 'suppressed' };
    case 'skipped':
      return { status: 'skipped', reason: 'unsubscribed' };
    default:
      return { status };
  }
}

/** The stored statuses an API status stands for (a list filter). */
export function storedStatuses(status: PublicEmailStatus): EmailStatus[] {
  return status === 'skipped' ? ['skipped', 'suppressed'] : [status];
}

/** /v1/send knows only whether an email was queued or skipped. */
export function sendOutcome(status: EmailStatus): SendOutcome {
  const s = publicStatus(status);
  return s.status === 'skipped' ? { status: 'skipped', reason: s.reason! } : { status: 'queued' };
}

export interface EmailEventView {
  type: EmailEventType;
  occurredAt: string;
  bounceType?: string;
  reason?: string;
  url?: string;
  messageId?: string;
}

/** An email in `GET /emails` (the content is not repeated: subject, addresses, state, timestamps). */
export interface EmailSummaryView {
  id: string;
  status: PublicEmailStatus;
  reason?: SkipReason;
  contactId: string;
  to: { email: string; name: string | null };
  from: { email: string; name: string | null };
  replyTo: string | null;
  subject: string;
  type: 'marketing' | 'transactional';
  templateId: string | null;
  origin: 'api' | 'campaign' | 'workflow';
  /** A campaign's test send (POST /campaigns/:id/test). */
  test: boolean;
  /** Test mode (docs/test-mode.md): a test key's or a sandbox address's email, never handed to a relay, its outcome simulated. */
  testMode: boolean;
  attempts: number;
  /** The last problem: the relay's answer of a bounce or failure, why it was skipped, a retry's cause. */
  error: string | null;
  createdAt: string;
  sentAt: string | null;
  openedAt: string | null;
  clickedAt: string | null;
  bouncedAt: string | null;
  complainedAt: string | null;
}

/** `GET /emails/:id`: the summary and every lifecycle event, oldest first. */
export interface EmailView extends EmailSummaryView {
  deliveredAt: string | null;
  failedAt: string | null;
  events: EmailEventView[];
}

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

export function emailSummaryView(e: Email): EmailSummaryView {
  return {
    id: e.id,
    ...publicStatus(e.status),
    contactId: e.contactId,
    to: { email: e.toEmail, name: e.toName },
    from: { email: e.fromEmail, name: e.fromName },
    replyTo: e.replyTo,
    subject: e.subject,
    type: e.type,
    templateId: e.templateId,
    origin: e.origin,
    test: e.test === true,
    testMode: e.testMode === true,
    attempts: e.attempts,
    error: e.error,
    createdAt: iso(e.createdAt)!,
    sentAt: iso(e.sentAt),
    openedAt: iso(e.openedAt),
    clickedAt: iso(e.clickedAt),
    bouncedAt: iso(e.bouncedAt),
    complainedAt: iso(e.complainedAt),
  };
}

export function emailView(e: Email, events: EmailEvent[]): EmailView {
  const first = (type: EmailEventType) => iso(events.find((ev) => ev.type === type)?.occurredAt);
  return {
    ...emailSummaryView(e),
    deliveredAt: first('delivered'),
    failedAt: first('failed'),
    events: events.map((ev) => ({ type: ev.type, occurredAt: iso(ev.occurredAt)!, ...ev.data })),
  };
}
