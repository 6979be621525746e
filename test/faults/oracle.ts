/**
 * The fault suite's oracle (issue 44): what the load driver was told (the ledger) against what
 * Herald holds afterwards (PostgreSQL's rows) and what the relay received (the SMTP sink), by rules
 * that know nothing of processes, Kafka or HTTP. Pure: the scenarios gather the inputs, this judges.
 */

/** One request of the load, as the driver saw it. */
export interface LedgerEntry {
  kind: 'send' | 'track';
  /** The recipient targeted (send) or the contact tracked (track). */
  recipient: string;
  /** Milliseconds since the epoch when the request left, and when its answer (or failure) came. */
  startedAt: number;
  endedAt: number;
  /** The HTTP status, or null when no answer came (refused, reset, timed out). */
  status: number | null;
  /** The id Herald answered with: the email's (send) or the tracked event's (track), on a 2xx. */
  id?: string;
  /** The Retry-After header of a refusal, when it had one. */
  retryAfter?: string;
  /** What a refusal's body or a failure said (its first 200 characters): for the scenarios' notes. */
  error?: string;
}

/** An email row of sending.emails (its statuses: EmailStatus of libs/services/sending), as the oracle reads it. */
export interface EmailRow {
  id: string;
  status: string;
  messageId: string;
  error: string | null;
}

/** What Herald holds and what the relay received once the scenario has settled. */
export interface FinalState {
  emails: ReadonlyMap<string, EmailRow>;
  /** Ids of the tracked events stored (contacts.tracked_events). */
  events: ReadonlySet<string>;
  /** Contacts' addresses stored (contacts.contacts) for the project under load. */
  contacts: ReadonlySet<string>;
  /** The Message-ID (without brackets) of every message the sink received, one per copy. */
  received: readonly string[];
  /**
   * Ids of the tracked events a consumer across Kafka holds (segments' read model,
   * `segment_contact_events.event_record_id`): when given, an acknowledged track must have reached it.
   */
  projected?: ReadonlySet<string>;
}

/** The statuses an email ends in: anything else after recovery is a stuck email. */
export const FINAL_EMAIL_STATUSES: ReadonlySet<string> = new Set([
  'sent',
  'delivered',
  'bounced',
  'failed',
  'suppressed',
  'skipped',
]);

/** The statuses whose email should have reached the relay. */
const HANDED_OVER: ReadonlySet<string> = new Set(['sent', 'delivered', 'bounced']);

/**
 * An email whose hand-off a SIGKILL may have cut, as sending's recovery records it (docs/sending.md,
 * "Never twice"): counted as in doubt, not lost, when the relay has no copy.
 */
export const IN_DOUBT = /^(Recovered after a worker stopped|The relay's answer was lost)/;

export interface Verdict {
  acknowledged: number;
  /** Acknowledged writes Herald does not hold, or emails neither received nor flagged in doubt. */
  lost: { entry: LedgerEntry; why: string }[];
  /** Message-IDs the relay received more than once, with the number of copies. */
  duplicated: { messageId: string; copies: number }[];
  /** Emails flagged in doubt by sending's recovery that the relay never received. */
  inDoubt: string[];
  /** Acknowledged emails not in a final status (a stuck consumer or relay). */
  stuck: string[];
}

export const isAcknowledged = (e: LedgerEntry): boolean => e.status !== null && e.status >= 200 && e.status < 300;

/** Judges the ledger entries against the final state (see the rules on each field of {@link Verdict}). */
export function judge(ledger: readonly LedgerEntry[], state: FinalState): Verdict {
  const copies = new Map<string, number>();
  for (const id of state.received) copies.set(id, (copies.get(id) ?? 0) + 1);
  const acked = ledger.filter(isAcknowledged);
  const verdict: Verdict = { acknowledged: acked.length, lost: [], duplicated: [], inDoubt: [], stuck: [] };
  const ours = new Set<string>();
  for (const entry of acked) {
    if (!entry.id) {
      verdict.lost.push({ entry, why: 'acknowledged without an id' });
      continue;
    }
    if (entry.kind === 'track') {
      if (!state.events.has(entry.id)) verdict.lost.push({ entry, why: 'event not stored' });
      else if (!state.contacts.has(entry.recipient)) verdict.lost.push({ entry, why: 'contact not stored' });
      else if (state.projected && !state.projected.has(entry.id))
        verdict.lost.push({ entry, why: 'event never reached segments (over Kafka)' });
      continue;
    }
    const row = state.emails.get(entry.id);
    if (!row) {
      verdict.lost.push({ entry, why: 'email not stored' });
      continue;
    }
    ours.add(row.messageId);
    if (!FINAL_EMAIL_STATUSES.has(row.status)) {
      verdict.stuck.push(row.id);
      continue;
    }
    if (!HANDED_OVER.has(row.status) || copies.has(row.messageId) || refusedByRelay(row)) continue;
    if (row.error !== null && IN_DOUBT.test(row.error)) verdict.inDoubt.push(row.id);
    else verdict.lost.push({ entry, why: `email ${row.status} but never received` });
  }
  for (const [messageId, n] of copies)
    if (n > 1 && ours.has(messageId)) verdict.duplicated.push({ messageId, copies: n });
  return verdict;
}

/**
 * An email the relay refused for good (a 5xx answer, recorded `bounced` with the relay's answer):
 * never received, and rightly so, so not lost.
 */
export const refusedByRelay = (row: EmailRow): boolean =>
  row.status === 'bounced' && row.error !== null && /\b5\d\d\b/.test(row.error);

/** What a faulty relay (scenario 5) made of the acknowledged emails, beside the verdict. */
export interface RelayVerdict {
  /** Emails bounced by a permanent (5xx) answer. */
  refused: string[];
  /** Emails given up (`failed`): a temporary failure must be retried until sent, never given up. */
  gaveUp: string[];
  /** Emails sending flagged in doubt (the relay's answer lost after the hand-off). */
  flagged: string[];
  /** Emails the relay received more than once, and whether each was flagged in doubt. */
  resent: { id: string; copies: number; flagged: boolean }[];
}

/** Judges the acknowledged emails of `ledger` by the rules of {@link RelayVerdict}. */
export function judgeRelay(ledger: readonly LedgerEntry[], state: FinalState): RelayVerdict {
  const copies = new Map<string, number>();
  for (const id of state.received) copies.set(id, (copies.get(id) ?? 0) + 1);
  const v: RelayVerdict = { refused: [], gaveUp: [], flagged: [], resent: [] };
  for (const entry of ledger) {
    if (entry.kind !== 'send' || !isAcknowledged(entry) || !entry.id) continue;
    const row = state.emails.get(entry.id);
    if (!row) continue;
    const flagged = row.error !== null && IN_DOUBT.test(row.error);
    if (refusedByRelay(row)) v.refused.push(row.id);
    if (row.status === 'failed') v.gaveUp.push(row.id);
    if (flagged) v.flagged.push(row.id);
    const n = copies.get(row.messageId) ?? 0;
    if (n > 1) v.resent.push({ id: row.id, copies: n, flagged });
  }
  return v;
}

/** Requests that started in [from, to): the window of one fault. */
export const within = (ledger: readonly LedgerEntry[], from: number, to: number): LedgerEntry[] =>
  ledger.filter((e) => e.startedAt >= from && e.startedAt < to);

/** The share of requests in `ledger` not answered with a 2xx (0 when there were none). */
export function errorRate(ledger: readonly LedgerEntry[]): number {
  if (ledger.length === 0) return 0;
  return ledger.filter((e) => !isAcknowledged(e)).length / ledger.length;
}

/**
 * Milliseconds from the fault to recovery: to the first acknowledged request started after the last
 * failed one (0 when none failed after the fault; null when none succeeded after the last failure).
 * Only requests answered before `until` count: the next fault's failures are not this one's.
 */
export function recoveryMs(ledger: readonly LedgerEntry[], faultAt: number, until = Infinity): number | null {
  const after = ledger
    .filter((e) => e.startedAt >= faultAt && e.endedAt < until)
    .sort((a, b) => a.startedAt - b.startedAt);
  let lastFailure = -1;
  after.forEach((e, i) => {
    if (!isAcknowledged(e)) lastFailure = i;
  });
  if (lastFailure === -1) return 0;
  const recovered = after.slice(lastFailure + 1).find(isAcknowledged);
  return recovered ? recovered.endedAt - faultAt : null;
}
