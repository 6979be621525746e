import { Topics, type EmailLifecycleV1, type EventEnvelope } from '@herald/contracts';
import { SENT_METRIC_TYPE, type ActivityRow } from './activity-item.js';
import { engagementKey, type CampaignCounters, type Engagement, type TrackedEmailTimes } from './activity-store.js';

/**
 * What a run of events adds to the projection's aggregates, decided without the database: the
 * deltas summed per key, in key order (so concurrent batches lock counter rows in the same order).
 * ActivityStore writes them; ActivityProjector strings the two together.
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** How long minute counts are kept (the retention job prunes older ones). */
export const MINUTE_COUNTS_KEPT_MS = 2 * 86_400_000;

const floorTo = (iso: string, unit: number) => new Date(Math.floor(Date.parse(iso) / unit) * unit).toISOString();

/** Sums `n` per key, then returns the entries sorted by key: rows locked in one order by every batch. */
function sumBy<T, R extends object>(items: T[], key: (t: T) => string, make: (t: T) => R): (R & { n: number })[] {
  const sums = new Map<string, R & { n: number }>();
  for (const it of items) {
    const k = key(it);
    const s = sums.get(k);
    if (s) s.n++;
    else sums.set(k, { ...make(it), n: 1 });
  }
  return [...sums.keys()].sort().map((k) => sums.get(k)!);
}

/** The earliest `email.sent` and `email.delivered` of each email of the run, by email id. */
export function trackedEmailTimes(events: EventEnvelope[]): TrackedEmailTimes[] {
  const byEmail = new Map<string, TrackedEmailTimes>();
  for (const e of events) {
    if (e.type !== Topics.EmailSent && e.type !== Topics.EmailDelivered) continue;
    const p = e.payload as EmailLifecycleV1;
    if (!p.emailId) continue;
    const t = byEmail.get(p.emailId) ?? {
      emailId: p.emailId,
      projectId: e.projectId,
      contactId: p.contactId ?? null,
      campaignId: p.campaignId ?? null,
      sent: null,
      delivered: null,
    };
    if (e.type === Topics.EmailSent) t.sent = t.sent && t.sent < e.occurredAt ? t.sent : e.occurredAt;
    else t.delivered = t.delivered && t.delivered < e.occurredAt ? t.delivered : e.occurredAt;
    byEmail.set(p.emailId, t);
  }
  return [...byEmail.keys()].sort().map((id) => byEmail.get(id)!);
}

/** Feed items per project, UTC hour and type. */
export const hourlyCounts = (rows: ActivityRow[]) =>
  sumBy(
    rows,
    (r) => `${r.projectId}\u0000${floorTo(r.occurredAt, HOUR)}\u0000${r.type}`,
    (r) => ({ projectId: r.projectId, hour: floorTo(r.occurredAt, HOUR), type: r.type as string }),
  );

/**
 * The `sent` metric's candidates: the first `email.sent` or `email.bounced` of each email of the run
 * (counted if the email was never counted: ActivityStore.markCountedSent), and the `email.sent`
 * items that name no email (always counted).
 */
export function sentCandidates(rows: ActivityRow[]): {
  firstOfEmail: (ActivityRow & { emailId: string })[];
  withoutEmail: ActivityRow[];
} {
  const first = new Map<string, ActivityRow & { emailId: string }>();
  const withoutEmail: ActivityRow[] = [];
  for (const r of rows) {
    if (r.type !== Topics.EmailSent && r.type !== Topics.EmailBounced) continue;
    if (!r.emailId) {
      if (r.type === Topics.EmailSent) withoutEmail.push(r);
      continue;
    }
    const seen = first.get(r.emailId);
    if (!seen || r.occurredAt < seen.occurredAt) first.set(r.emailId, r as ActivityRow & { emailId: string });
  }
  return { firstOfEmail: [...first.keys()].sort().map((id) => first.get(id)!), withoutEmail };
}

/** Emails counted as sent, per project and UTC hour: the hourly `metric.sent` row. */
export const sentHourlyCounts = (counted: ActivityRow[]) =>
  sumBy(
    counted,
    (r) => `${r.projectId}\u0000${floorTo(r.occurredAt, HOUR)}`,
    (r) => ({ projectId: r.projectId, hour: floorTo(r.occurredAt, HOUR), type: SENT_METRIC_TYPE as string }),
  );

/** Feed items per project and minute, of the last `MINUTE_COUNTS_KEPT_MS` before `now` only. */
export function minuteCounts(rows: ActivityRow[], now: number) {
  const since = new Date(now - MINUTE_COUNTS_KEPT_MS).toISOString();
  const recent = rows.filter((r) => new Date(r.occurredAt).toISOString() >= since);
  return sumBy(
    recent,
    (r) => `${r.projectId}\u0000${floorTo(r.occurredAt, MINUTE)}`,
    (r) => ({ projectId: r.projectId, minute: floorTo(r.occurredAt, MINUTE) }),
  );
}

/** Feed items per project and type, with the latest time of each. */
export function typeCounts(rows: ActivityRow[]) {
  const last = new Map<string, string>();
  for (const r of rows) {
    const k = `${r.projectId}\u0000${r.type}`;
    if (!last.has(k) || last.get(k)! < r.occurredAt) last.set(k, r.occurredAt);
  }
  return sumBy(
    rows,
    (r) => `${r.projectId}\u0000${r.type}`,
    (r) => ({ projectId: r.projectId, type: r.type as string, lastSeenAt: last.get(`${r.projectId}\u0000${r.type}`)! }),
  );
}

/** The first of each (project, campaign, recipient, kind), in key order. */
export function distinctEngagements(items: Engagement[]): Engagement[] {
  const byKey = new Map<string, Engagement>();
  for (const i of items) {
    const k = engagementKey(i);
    if (!byKey.has(k)) byKey.set(k, i);
  }
  return [...byKey.keys()].sort().map((k) => byKey.get(k)!);
}

const ENGAGEMENT_KINDS: Partial<Record<string, 'open' | 'click' | 'sent'>> = {
  [Topics.EmailOpened]: 'open',
  [Topics.EmailClicked]: 'click',
  // a recipient counts as sent once, whether the relay took the email (email.sent) or refused it
  // at once (email.bounced with no email.sent): the campaigns ledger's `sent`, which a bounce follows
  [Topics.EmailSent]: 'sent',
  [Topics.EmailBounced]: 'sent',
};

/** The campaign email items of a run (a reply to a campaign's email, `email.received`, is no email of it). */
export const campaignEmails = (rows: ActivityRow[]) =>
  rows.filter((r) => r.campaignId && r.type.startsWith('email.') && r.type !== Topics.EmailReceived);

/** The engagements campaign emails may be a recipient's first of: opens, clicks, and sent (a sent or a bounce). */
export const campaignEngagements = (emails: ActivityRow[]): Engagement[] =>
  emails
    .filter((r) => ENGAGEMENT_KINDS[r.type])
    .map((r) => ({
      projectId: r.projectId,
      campaignId: r.campaignId!,
      recipient: r.contactId ?? r.contactEmail!,
      kind: ENGAGEMENT_KINDS[r.type]!,
      eventId: r.eventId,
    }));

const sortedCounters = (counters: Map<string, CampaignCounters>) =>
  [...counters.keys()].sort().map((k) => counters.get(k)!);

/**
 * Per-campaign counter deltas of its email items: totals of every kind, and the unique ones (and
 * `sent`) only for the events in `firsts` (a recipient's first of its kind).
 */
export function campaignCounters(emails: ActivityRow[], firsts: Set<string>): CampaignCounters[] {
  const counters = new Map<string, CampaignCounters>();
  for (const r of emails) {
    const k = `${r.projectId}\u0000${r.campaignId}`;
    const c = counters.get(k) ?? { projectId: r.projectId, campaignId: r.campaignId!, counts: {} };
    const add = (name: keyof CampaignCounters['counts']) => (c.counts[name] = (c.counts[name] ?? 0) + 1);
    if (r.type === Topics.EmailSent) {
      if (firsts.has(r.eventId)) add('sent');
    } else if (r.type === Topics.EmailDelivered) add('delivered');
    else if (r.type === Topics.EmailOpened) {
      add('opens_total');
      if (firsts.has(r.eventId)) add('opens_unique');
      if (r.data.prefetch === true) add('opens_prefetch');
    } else if (r.type === Topics.EmailClicked) {
      add('clicks_total');
      if (firsts.has(r.eventId)) add('clicks_unique');
    } else if (r.type === Topics.EmailBounced) {
      add('bounces');
      if (firsts.has(r.eventId)) add('sent');
    } else if (r.type === Topics.EmailComplained) add('complaints');
    else if (r.type === Topics.EmailFailed) add('failed');
    counters.set(k, c);
  }
  return sortedCounters(counters);
}

/** Unsubscribes through an email's link (the ones a campaign may be credited with). */
export const linkUnsubscribes = (rows: ActivityRow[]) =>
  rows.filter((r) => r.type === Topics.ContactUnsubscribed && r.data.reason === 'unsubscribe-link' && r.contactId);

/** An unsubscribe put down to a campaign: an engagement of kind `unsubscribe`. */
export const unsubscribeEngagement = (u: ActivityRow, campaignId: string): Engagement => ({
  projectId: u.projectId,
  campaignId,
  recipient: u.contactId!,
  kind: 'unsubscribe',
  eventId: u.eventId,
});

/** `unsubscribes` deltas: one per attributed unsubscribe that was the recipient's first for its campaign. */
export function unsubscribeCounters(attributed: Engagement[], firsts: Set<string>): CampaignCounters[] {
  const counters = new Map<string, CampaignCounters>();
  for (const a of attributed) {
    if (!firsts.has(a.eventId)) continue;
    const k = `${a.projectId}\u0000${a.campaignId}`;
    const c = counters.get(k) ?? { projectId: a.projectId, campaignId: a.campaignId, counts: { unsubscribes: 0 } };
    c.counts.unsubscribes! += 1;
    counters.set(k, c);
  }
  return sortedCounters(counters);
}
