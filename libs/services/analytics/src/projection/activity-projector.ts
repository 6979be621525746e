import { Topics, type EmailLifecycleV1, type EventEnvelope } from '@herald/contracts';
import { tableName } from '@herald/persistence';
import type { EntityManager } from 'typeorm';
import { isPrefetchOpen, SENT_METRIC_TYPE, toActivity, type ActivityRow } from './activity-item.js';
import { campaignReferences, campaignStates, workflowStates } from './entity-states.js';
import {
  ActivityHourly,
  ActivityItem,
  ActivityMinutely,
  ActivityTypeCount,
  CampaignEngagement,
  CampaignStats,
  TrackedEmail,
} from './activity.entities.js';

export interface ProjectorOptions {
  /** The prefetch rule's window (docs/analytics.md). */
  prefetchWindowMs: number;
  /** An unsubscribe is put down to the contact's latest campaign email sent within this time. */
  unsubscribeAttributionMs: number;
}

interface CampaignCounters {
  projectId: string;
  campaignId: string;
  counts: Record<string, number>;
}

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** How long minute counts are kept (the retention job prunes older ones). */
export const MINUTE_COUNTS_KEPT_MS = 2 * 86_400_000;
const floorTo = (iso: string, unit: number) => new Date(Math.floor(Date.parse(iso) / unit) * unit).toISOString();

/** Sums `n` per key, then returns the entries sorted by key: rows locked in one order by every batch. */
function sumBy<T>(items: T[], key: (t: T) => string, make: (t: T) => Record<string, unknown>) {
  const sums = new Map<string, Record<string, unknown> & { n: number }>();
  for (const it of items) {
    const k = key(it);
    const s = sums.get(k);
    if (s) s.n++;
    else sums.set(k, { ...make(it), n: 1 });
  }
  return [...sums.keys()].sort().map((k) => sums.get(k)!);
}

const col = <T, K extends keyof T>(rows: T[], k: K): T[K][] => rows.map((r) => r[k]);

/**
 * Applies a run of events to the projection, in the transaction that records them in the inbox:
 * feed items first (keyed by the source event id, so only events never seen before come back from
 * the insert), then the aggregates of exactly those items, each with one multi-row statement whose
 * rows are sorted so that concurrent batches take their row locks in the same order. Campaign and
 * workflow states are last-writer-wins by the event's own time, so a replay or a late older event
 * changes nothing.
 */
export class ActivityProjector {
  constructor(private readonly options: ProjectorOptions) {}

  async apply(m: EntityManager, events: EventEnvelope[]): Promise<void> {
    await this.trackEmails(m, events);
    const rows = events.map(toActivity).filter((r): r is ActivityRow => r !== null);
    if (rows.length > 0) {
      await this.flagPrefetch(m, rows);
      const inserted = await this.insertItems(m, rows);
      if (inserted.length > 0) {
        await this.countSent(m, inserted);
        await this.countHourly(m, inserted);
        await this.countMinutely(m, inserted);
        await this.countTypes(m, inserted);
        await this.countCampaigns(m, inserted);
        await this.countUnsubscribes(m, inserted);
      }
    }
    await campaignReferences(m, events);
    await campaignStates(
      m,
      events.filter((e) => e.type.startsWith('campaign.')),
    );
    await workflowStates(
      m,
      events.filter((e) => e.type.startsWith('workflow.')),
    );
  }

  /** Sent and delivered times of each email (what the prefetch rule and the unsubscribe attribution read). */
  private async trackEmails(m: EntityManager, events: EventEnvelope[]): Promise<void> {
    const byEmail = new Map<
      string,
      {
        projectId: string;
        contactId: string | null;
        campaignId: string | null;
        sent: string | null;
        delivered: string | null;
      }
    >();
    for (const e of events) {
      if (e.type !== Topics.EmailSent && e.type !== Topics.EmailDelivered) continue;
      const p = e.payload as EmailLifecycleV1;
      if (!p.emailId) continue;
      const t = byEmail.get(p.emailId) ?? {
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
    if (byEmail.size === 0) return;
    const ids = [...byEmail.keys()].sort();
    const rows = ids.map((id) => byEmail.get(id)!);
    await m.query(
      `INSERT INTO ${tableName(m, TrackedEmail)} AS t (email_id, project_id, contact_id, campaign_id, sent_at, delivered_at)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[], $6::timestamptz[])
       ON CONFLICT (email_id) DO UPDATE SET
         sent_at = LEAST(t.sent_at, EXCLUDED.sent_at),
         delivered_at = LEAST(t.delivered_at, EXCLUDED.delivered_at),
         campaign_id = COALESCE(t.campaign_id, EXCLUDED.campaign_id),
         contact_id = COALESCE(t.contact_id, EXCLUDED.contact_id)`,
      [
        ids,
        col(rows, 'projectId'),
        col(rows, 'contactId'),
        col(rows, 'campaignId'),
        col(rows, 'sent'),
        col(rows, 'delivered'),
      ],
    );
  }

  /** Marks opens that the prefetch rule takes for a client's automatic fetch (`data.prefetch`). */
  private async flagPrefetch(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    const opens = rows.filter((r) => r.type === Topics.EmailOpened && r.emailId);
    if (opens.length === 0) return;
    const known: { email_id: string; sent_at: Date | null; delivered_at: Date | null }[] = await m.query(
      `SELECT email_id, sent_at, delivered_at FROM ${tableName(m, TrackedEmail)} WHERE email_id = ANY($1::varchar[])`,
      [[...new Set(opens.map((o) => o.emailId!))]],
    );
    const byId = new Map(known.map((k) => [k.email_id, { sentAt: k.sent_at, deliveredAt: k.delivered_at }]));
    for (const o of opens) {
      const prefetch = isPrefetchOpen(new Date(o.occurredAt), byId.get(o.emailId!), this.options.prefetchWindowMs);
      if (prefetch !== undefined) o.data = { ...o.data, prefetch };
    }
  }

  /** Inserts the feed items; returns those that were new (a replayed event's item already exists). */
  private async insertItems(m: EntityManager, rows: ActivityRow[]): Promise<ActivityRow[]> {
    const fresh: { event_id: string }[] = await m.query(
      `INSERT INTO ${tableName(m, ActivityItem)} (event_id, project_id, type, occurred_at, contact_id, contact_email,
         email_id, email_subject, campaign_id, workflow_id, workflow_name, data)
       SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::timestamptz[], $5::varchar[], $6::varchar[],
         $7::varchar[], $8::varchar[], $9::varchar[], $10::varchar[], $11::varchar[], $12::jsonb[])
       ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      [
        col(rows, 'eventId'),
        col(rows, 'projectId'),
        col(rows, 'type'),
        col(rows, 'occurredAt'),
        col(rows, 'contactId'),
        col(rows, 'contactEmail'),
        col(rows, 'emailId'),
        col(rows, 'emailSubject'),
        col(rows, 'campaignId'),
        col(rows, 'workflowId'),
        col(rows, 'workflowName'),
        rows.map((r) => JSON.stringify(r.data)),
      ],
    );
    if (fresh.length === rows.length) return rows;
    const ids = new Set(fresh.map((f) => f.event_id));
    return rows.filter((r) => ids.has(r.eventId));
  }

  private async countHourly(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    const sums = sumBy(
      rows,
      (r) => `${r.projectId}\u0000${floorTo(r.occurredAt, HOUR)}\u0000${r.type}`,
      (r) => ({ projectId: r.projectId, hour: floorTo(r.occurredAt, HOUR), type: r.type }),
    );
    await m.query(
      `INSERT INTO ${tableName(m, ActivityHourly)} AS t (project_id, hour, type, count)
       SELECT * FROM unnest($1::varchar[], $2::timestamptz[], $3::varchar[], $4::bigint[])
       ON CONFLICT (project_id, hour, type) DO UPDATE SET count = t.count + EXCLUDED.count`,
      [col(sums, 'projectId'), col(sums, 'hour'), col(sums, 'type'), col(sums, 'n')],
    );
  }

  /**
   * The time series' `sent`: each email once, in the hour of the first of its `email.sent` and
   * `email.bounced` consumed (an email the relay refused at once has only the bounce; over Kafka a
   * later bounce may be consumed before its `email.sent`). The campaign counters' rule, per email.
   */
  private async countSent(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    const first = new Map<string, ActivityRow>();
    const counted: ActivityRow[] = [];
    for (const r of rows) {
      if (r.type !== Topics.EmailSent && r.type !== Topics.EmailBounced) continue;
      if (!r.emailId) {
        if (r.type === Topics.EmailSent) counted.push(r);
        continue;
      }
      const seen = first.get(r.emailId);
      if (!seen || r.occurredAt < seen.occurredAt) first.set(r.emailId, r);
    }
    if (first.size > 0) {
      const ids = [...first.keys()].sort();
      const candidates = ids.map((id) => first.get(id)!);
      const fresh: { email_id: string }[] = await m.query(
        `INSERT INTO ${tableName(m, TrackedEmail)} AS t (email_id, project_id, contact_id, campaign_id, counted_sent_at)
         SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[])
         ON CONFLICT (email_id) DO UPDATE SET counted_sent_at = EXCLUDED.counted_sent_at
           WHERE t.counted_sent_at IS NULL
         RETURNING email_id`,
        [
          ids,
          col(candidates, 'projectId'),
          col(candidates, 'contactId'),
          col(candidates, 'campaignId'),
          col(candidates, 'occurredAt'),
        ],
      );
      for (const f of fresh) counted.push(first.get(f.email_id)!);
    }
    if (counted.length === 0) return;
    const sums = sumBy(
      counted,
      (r) => `${r.projectId}\u0000${floorTo(r.occurredAt, HOUR)}`,
      (r) => ({ projectId: r.projectId, hour: floorTo(r.occurredAt, HOUR) }),
    );
    await m.query(
      `INSERT INTO ${tableName(m, ActivityHourly)} AS t (project_id, hour, type, count)
       SELECT p, h, '${SENT_METRIC_TYPE}', n FROM unnest($1::varchar[], $2::timestamptz[], $3::bigint[]) AS x(p, h, n)
       ON CONFLICT (project_id, hour, type) DO UPDATE SET count = t.count + EXCLUDED.count`,
      [col(sums, 'projectId'), col(sums, 'hour'), col(sums, 'n')],
    );
  }

  /** Minute counts serve `/activity/recent-count` (the last day at most): older items are not counted per minute. */
  private async countMinutely(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    const since = new Date(Date.now() - MINUTE_COUNTS_KEPT_MS).toISOString();
    const recent = rows.filter((r) => new Date(r.occurredAt).toISOString() >= since);
    if (recent.length === 0) return;
    const sums = sumBy(
      recent,
      (r) => `${r.projectId}\u0000${floorTo(r.occurredAt, MINUTE)}`,
      (r) => ({ projectId: r.projectId, minute: floorTo(r.occurredAt, MINUTE) }),
    );
    await m.query(
      `INSERT INTO ${tableName(m, ActivityMinutely)} AS t (project_id, minute, count)
       SELECT * FROM unnest($1::varchar[], $2::timestamptz[], $3::bigint[])
       ON CONFLICT (project_id, minute) DO UPDATE SET count = t.count + EXCLUDED.count`,
      [col(sums, 'projectId'), col(sums, 'minute'), col(sums, 'n')],
    );
  }

  private async countTypes(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    const last = new Map<string, string>();
    for (const r of rows) {
      const k = `${r.projectId}\u0000${r.type}`;
      if (!last.has(k) || last.get(k)! < r.occurredAt) last.set(k, r.occurredAt);
    }
    const sums = sumBy(
      rows,
      (r) => `${r.projectId}\u0000${r.type}`,
      (r) => ({ projectId: r.projectId, type: r.type, lastSeenAt: last.get(`${r.projectId}\u0000${r.type}`)! }),
    );
    await m.query(
      `INSERT INTO ${tableName(m, ActivityTypeCount)} AS t (project_id, type, count, last_seen_at)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::bigint[], $4::timestamptz[])
       ON CONFLICT (project_id, type) DO UPDATE
         SET count = t.count + EXCLUDED.count, last_seen_at = GREATEST(t.last_seen_at, EXCLUDED.last_seen_at)`,
      [col(sums, 'projectId'), col(sums, 'type'), col(sums, 'n'), col(sums, 'lastSeenAt')],
    );
  }

  /** Per-campaign counters: totals of every email event of a campaign, unique opens and clicks per recipient. */
  private async countCampaigns(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    const emails = rows.filter((r) => r.campaignId && r.type.startsWith('email.'));
    if (emails.length === 0) return;
    const kinds: Partial<Record<string, 'open' | 'click' | 'sent'>> = {
      [Topics.EmailOpened]: 'open',
      [Topics.EmailClicked]: 'click',
      // a recipient counts as sent once, whether the relay took the email (email.sent) or refused it
      // at once (email.bounced with no email.sent): the campaigns ledger's `sent`, which a bounce follows
      [Topics.EmailSent]: 'sent',
      [Topics.EmailBounced]: 'sent',
    };
    const firsts = await this.firstEngagements(
      m,
      emails
        .filter((r) => kinds[r.type])
        .map((r) => ({
          projectId: r.projectId,
          campaignId: r.campaignId!,
          recipient: r.contactId ?? r.contactEmail!,
          kind: kinds[r.type]!,
          eventId: r.eventId,
        })),
    );
    const counters = new Map<string, CampaignCounters>();
    for (const r of emails) {
      const k = `${r.projectId}\u0000${r.campaignId}`;
      const c = counters.get(k) ?? { projectId: r.projectId, campaignId: r.campaignId!, counts: {} };
      const add = (name: string) => (c.counts[name] = (c.counts[name] ?? 0) + 1);
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
    await this.addToCampaigns(
      m,
      [...counters.keys()].sort().map((k) => counters.get(k)!),
    );
  }

  /** Records first engagements; returns the event ids that were a recipient's first of their kind. */
  private async firstEngagements(
    m: EntityManager,
    items: { projectId: string; campaignId: string; recipient: string; kind: string; eventId: string }[],
  ): Promise<Set<string>> {
    if (items.length === 0) return new Set();
    const byKey = new Map<string, (typeof items)[number]>();
    for (const i of items) {
      const k = `${i.projectId}\u0000${i.campaignId}\u0000${i.recipient}\u0000${i.kind}`;
      if (!byKey.has(k)) byKey.set(k, i);
    }
    const rows = [...byKey.keys()].sort().map((k) => byKey.get(k)!);
    const inserted: { project_id: string; campaign_id: string; recipient: string; kind: string }[] = await m.query(
      `INSERT INTO ${tableName(m, CampaignEngagement)} (project_id, campaign_id, recipient, kind)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[])
       ON CONFLICT DO NOTHING RETURNING project_id, campaign_id, recipient, kind`,
      [col(rows, 'projectId'), col(rows, 'campaignId'), col(rows, 'recipient'), col(rows, 'kind')],
    );
    return new Set(
      inserted.map(
        (i) => byKey.get(`${i.project_id}\u0000${i.campaign_id}\u0000${i.recipient}\u0000${i.kind}`)!.eventId,
      ),
    );
  }

  private async addToCampaigns(m: EntityManager, counters: CampaignCounters[]): Promise<void> {
    const names = [
      'sent',
      'delivered',
      'opens_total',
      'opens_unique',
      'opens_prefetch',
      'clicks_total',
      'clicks_unique',
      'bounces',
      'complaints',
      'failed',
      'unsubscribes',
    ];
    const casts = names.map((_, i) => `$${i + 3}::int[]`).join(', ');
    await m.query(
      `INSERT INTO ${tableName(m, CampaignStats)} AS t (project_id, campaign_id, ${names.join(', ')})
       SELECT * FROM unnest($1::varchar[], $2::varchar[], ${casts})
       ON CONFLICT (project_id, campaign_id) DO UPDATE SET ${names.map((n) => `${n} = t.${n} + EXCLUDED.${n}`).join(', ')}`,
      [
        col(counters, 'projectId'),
        col(counters, 'campaignId'),
        ...names.map((n) => counters.map((c) => c.counts[n] ?? 0)),
      ],
    );
  }

  /**
   * An unsubscribe through an email's link counts once per recipient for the campaign whose email
   * the contact received last (within the attribution window): `contact.unsubscribed` names no email.
   * The campaign of every unsubscribe of the run is looked up at once, then counted like the others.
   */
  private async countUnsubscribes(m: EntityManager, rows: ActivityRow[]): Promise<void> {
    const unsubscribes = rows.filter(
      (r) => r.type === Topics.ContactUnsubscribed && r.data.reason === 'unsubscribe-link' && r.contactId,
    );
    if (unsubscribes.length === 0) return;
    const latest: { event_id: string; campaign_id: string }[] = await m.query(
      `SELECT x.event_id, l.campaign_id
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::timestamptz[]) AS x(event_id, project_id, contact_id, at)
         CROSS JOIN LATERAL (
           SELECT campaign_id FROM ${tableName(m, TrackedEmail)}
            WHERE project_id = x.project_id AND contact_id = x.contact_id AND campaign_id IS NOT NULL
              AND sent_at <= x.at AND sent_at > x.at - make_interval(secs => $5)
            ORDER BY sent_at DESC LIMIT 1) l`,
      [
        col(unsubscribes, 'eventId'),
        col(unsubscribes, 'projectId'),
        col(unsubscribes, 'contactId'),
        col(unsubscribes, 'occurredAt'),
        this.options.unsubscribeAttributionMs / 1000,
      ],
    );
    const campaignOf = new Map(latest.map((l) => [l.event_id, l.campaign_id]));
    const attributed = unsubscribes
      .filter((u) => campaignOf.has(u.eventId))
      .map((u) => ({
        projectId: u.projectId,
        campaignId: campaignOf.get(u.eventId)!,
        recipient: u.contactId!,
        kind: 'unsubscribe',
        eventId: u.eventId,
      }));
    const first = await this.firstEngagements(m, attributed);
    const counters = new Map<string, CampaignCounters>();
    for (const a of attributed) {
      if (!first.has(a.eventId)) continue;
      const k = `${a.projectId}\u0000${a.campaignId}`;
      const c = counters.get(k) ?? { projectId: a.projectId, campaignId: a.campaignId, counts: { unsubscribes: 0 } };
      c.counts.unsubscribes! += 1;
      counters.set(k, c);
    }
    if (counters.size > 0)
      await this.addToCampaigns(
        m,
        [...counters.keys()].sort().map((k) => counters.get(k)!),
      );
  }
}
