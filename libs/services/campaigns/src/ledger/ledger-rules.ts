import { isValidEmail } from '@herald/contracts';
import type { RecipientStatus, SkipReason } from '../campaigns/campaign.entity.js';

/** A contact of the audience as it enters the ledger. */
export interface AudienceEntry {
  id: string;
  email: string;
  /** False: the contact is in the audience but unsubscribed (`skipped: unsubscribed`). */
  subscribed?: boolean;
}

export interface PlannedRow {
  contactId: string;
  email: string;
  status: 'pending' | 'skipped';
  reason: SkipReason | null;
}

/** The normalised address: trimmed and lower-cased (contacts' upsert key). */
export const normalise = (email: string): string => email.trim().toLowerCase();

/**
 * The ledger rows of one audience page, in order: the first occurrence of an address is pending, a
 * later one (in this page, or held in the ledger by another contact: `taken`, address → contact id) is
 * `skipped: duplicate`, an invalid one `skipped: invalid_address`, an unsubscribed contact `skipped:
 * unsubscribed` (it holds its address). Every entry gets exactly one row;
 * a contact already in the ledger (a page read again) plans the row it has.
 */
export function planRows(entries: readonly AudienceEntry[], taken: ReadonlyMap<string, string>): PlannedRow[] {
  const seen = new Map(taken);
  return entries.map((e) => {
    const email = normalise(e.email);
    if (!isValidEmail(email)) return { contactId: e.id, email, status: 'skipped', reason: 'invalid_address' };
    const holder = seen.get(email);
    if (holder !== undefined && holder !== e.id)
      return { contactId: e.id, email, status: 'skipped', reason: 'duplicate' };
    seen.set(email, e.id);
    if (e.subscribed === false) return { contactId: e.id, email, status: 'skipped', reason: 'unsubscribed' };
    return { contactId: e.id, email, status: 'pending', reason: null };
  });
}

/**
 * What an intake answer makes of a row: queued, or skipped with its reason. A `duplicate` (the key
 * was handed over before, by a run that died before recording the answer) is what the first call
 * answered: queued, or skipped (`firstStatus`).
 */
export function outcomeOf(result: { status: string; emailId?: string; reason?: string; firstStatus?: string }): {
  status: 'queued' | 'skipped';
  reason: SkipReason | null;
  emailId: string | null;
} {
  const skipped = result.status === 'skipped' || (result.status === 'duplicate' && result.firstStatus === 'skipped');
  if (!skipped) return { status: 'queued', reason: null, emailId: result.emailId ?? null };
  const reason: SkipReason =
    result.reason === 'unsubscribed' || result.reason === 'suppressed' || result.reason === 'invalid_address'
      ? result.reason
      : 'suppressed';
  return { status: 'skipped', reason, emailId: result.emailId ?? null };
}

/** Final states: a row in one of them never changes state again (engagement is recorded beside it). */
export const isFinal = (s: RecipientStatus): boolean => s === 'sent' || s === 'failed' || s === 'skipped';

/** Raw counts of a ledger, as one aggregate query gives them. */
export interface LedgerCounts {
  recipients: number;
  pending: number;
  queued: number;
  sent: number;
  failed: number;
  skipped: number;
  /** Skipped as unsubscribed (in the audience but unsubscribed). */
  unsubscribed: number;
  suppressed: number;
  duplicate: number;
  invalidAddress: number;
  cancelled: number;
  /** Left unsent because the project reached its campaign cap (docs/billing.md). */
  billingLimit: number;
  /** Left unsent because the project's sending was suspended (sender reputation, docs/billing.md). */
  sendingSuspended: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
  /** Sent, then unsubscribed through the campaign's link (`unsubscribed_at`). */
  unsubscribedByLink: number;
}

export interface CampaignStats extends LedgerCounts {
  /**
   * The campaign's unsubscribed recipients: skipped as unsubscribed, plus those who unsubscribed
   * through its link ({@link LedgerCounts.unsubscribedByLink}).
   */
  unsubscribed: number;
  /** The skip reason alone (`reason = unsubscribed`): with the other reasons it adds up to `skipped`. */
  skippedUnsubscribed: number;
  /** Over sent (0 when nothing was sent), rounded to 4 decimals; `unsubscribed` counts the link's only. */
  rates: {
    delivered: number;
    opened: number;
    clicked: number;
    bounced: number;
    complained: number;
    unsubscribed: number;
  };
  /** recipients = sent + skipped + failed (+ pending + queued while sending). */
  complete: boolean;
}

const rate = (n: number, of: number): number => (of === 0 ? 0 : Math.round((n / of) * 10_000) / 10_000);

/** The stats of `GET /campaigns/:id/stats` from the ledger's counts. */
export function statsOf(c: LedgerCounts): CampaignStats {
  return {
    ...c,
    unsubscribed: c.unsubscribed + c.unsubscribedByLink,
    skippedUnsubscribed: c.unsubscribed,
    rates: {
      delivered: rate(c.delivered, c.sent),
      opened: rate(c.opened, c.sent),
      clicked: rate(c.clicked, c.sent),
      bounced: rate(c.bounced, c.sent),
      complained: rate(c.complained, c.sent),
      unsubscribed: rate(c.unsubscribedByLink, c.sent),
    },
    complete: c.pending === 0 && c.queued === 0,
  };
}

/** The ledger's invariant: every row is counted once, in one state. */
export const addsUp = (c: LedgerCounts): boolean =>
  c.recipients === c.sent + c.skipped + c.failed + c.pending + c.queued &&
  c.skipped ===
    c.unsubscribed + c.suppressed + c.duplicate + c.invalidAddress + c.cancelled + c.billingLimit + c.sendingSuspended;

/** Why a campaign stopped before its whole audience was sent: its `stoppedReason`, and its remaining rows' skip reason. */
export type StopReason = Extract<SkipReason, 'billing_limit' | 'sending_suspended'>;

/**
 * The intake's refusals that stop a campaign (docs/billing.md), by error code: the project reached
 * its campaign cap (`billing_limit`), or its sending is suspended (`sending_suspended`). Any other
 * refusal does not stop it (null).
 */
export function stopReasonOf(code: string): StopReason | null {
  if (code === 'BILLING_LIMIT_EXCEEDED') return 'billing_limit';
  if (code === 'PROJECT_SENDING_SUSPENDED') return 'sending_suspended';
  return null;
}
