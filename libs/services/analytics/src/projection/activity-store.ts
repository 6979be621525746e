import { tableName } from '@herald/persistence';
import type { EntityManager } from 'typeorm';
import {
  ActivityHourly,
  ActivityItem,
  ActivityMinutely,
  ActivityTypeCount,
  CampaignEngagement,
  CampaignStats,
  TrackedEmail,
} from './activity.entities.js';

/** One feed item as the store writes it (`ActivityRow` of activity-item.ts). */
export interface FeedItem {
  eventId: string;
  projectId: string;
  type: string;
  occurredAt: string;
  contactId: string | null;
  contactEmail: string | null;
  emailId: string | null;
  emailSubject: string | null;
  campaignId: string | null;
  workflowId: string | null;
  workflowName: string | null;
  data: Record<string, unknown>;
}

/** An email's sent and delivered times as a run reports them (`tracked_emails`). */
export interface TrackedEmailTimes {
  emailId: string;
  projectId: string;
  contactId: string | null;
  campaignId: string | null;
  sent: string | null;
  delivered: string | null;
}

/** A recipient's engagement of a kind with a campaign, and the event that brought it. */
export interface Engagement {
  projectId: string;
  campaignId: string;
  recipient: string;
  kind: string;
  eventId: string;
}

export const engagementKey = (e: Omit<Engagement, 'eventId'>) =>
  `${e.projectId}\u0000${e.campaignId}\u0000${e.recipient}\u0000${e.kind}`;

/** Every counter of `campaign_stats`, in its column order. */
export const CAMPAIGN_COUNTERS = [
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
] as const;

/** A campaign's counter deltas (`campaign_stats` column → delta). */
export interface CampaignCounters {
  projectId: string;
  campaignId: string;
  counts: Partial<Record<(typeof CAMPAIGN_COUNTERS)[number], number>>;
}

const col = <T, K extends keyof T>(rows: T[], k: K): T[K][] => rows.map((r) => r[k]);

/**
 * The activity projection's SQL (feed items, counters, tracked emails, first engagements), each
 * write one multi-row statement in the caller's transaction, its rows in the order given (callers
 * sort them by key). Counters only ever add: a delta given twice is counted twice, so callers pass
 * the deltas of new items only.
 */
export class ActivityStore {
  /** Records emails' sent and delivered times: the earliest of each is kept, and a known campaign or contact stays. */
  async trackEmails(m: EntityManager, rows: TrackedEmailTimes[]): Promise<void> {
    if (rows.length === 0) return;
    await m.query(
      `INSERT INTO ${tableName(m, TrackedEmail)} AS t (email_id, project_id, contact_id, campaign_id, sent_at, delivered_at)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[], $6::timestamptz[])
       ON CONFLICT (email_id) DO UPDATE SET
         sent_at = LEAST(t.sent_at, EXCLUDED.sent_at),
         delivered_at = LEAST(t.delivered_at, EXCLUDED.delivered_at),
         campaign_id = COALESCE(t.campaign_id, EXCLUDED.campaign_id),
         contact_id = COALESCE(t.contact_id, EXCLUDED.contact_id)`,
      [
        col(rows, 'emailId'),
        col(rows, 'projectId'),
        col(rows, 'contactId'),
        col(rows, 'campaignId'),
        col(rows, 'sent'),
        col(rows, 'delivered'),
      ],
    );
  }

  /** The sent and delivered times known of these emails, by email id (unknown emails are absent). */
  async trackedTimes(
    m: EntityManager,
    emailIds: string[],
  ): Promise<Map<string, { sentAt: Date | null; deliveredAt: Date | null }>> {
    const known: { email_id: string; sent_at: Date | null; delivered_at: Date | null }[] = await m.query(
      `SELECT email_id, sent_at, delivered_at FROM ${tableName(m, TrackedEmail)} WHERE email_id = ANY($1::varchar[])`,
      [emailIds],
    );
    return new Map(known.map((k) => [k.email_id, { sentAt: k.sent_at, deliveredAt: k.delivered_at }]));
  }

  /** Inserts the feed items; returns those that were new (a replayed event's item already exists). */
  async insertItems<T extends FeedItem>(m: EntityManager, rows: T[]): Promise<T[]> {
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

  async addHourly(m: EntityManager, sums: { projectId: string; hour: string; type: string; n: number }[]) {
    await m.query(
      `INSERT INTO ${tableName(m, ActivityHourly)} AS t (project_id, hour, type, count)
       SELECT * FROM unnest($1::varchar[], $2::timestamptz[], $3::varchar[], $4::bigint[])
       ON CONFLICT (project_id, hour, type) DO UPDATE SET count = t.count + EXCLUDED.count`,
      [col(sums, 'projectId'), col(sums, 'hour'), col(sums, 'type'), col(sums, 'n')],
    );
  }

  /**
   * Marks each candidate's email as counted as sent, at the candidate's time, unless it already
   * was; returns the email ids marked now.
   */
  async markCountedSent(
    m: EntityManager,
    candidates: (Pick<FeedItem, 'projectId' | 'contactId' | 'campaignId' | 'occurredAt'> & { emailId: string })[],
  ): Promise<string[]> {
    const fresh: { email_id: string }[] = await m.query(
      `INSERT INTO ${tableName(m, TrackedEmail)} AS t (email_id, project_id, contact_id, campaign_id, counted_sent_at)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[])
       ON CONFLICT (email_id) DO UPDATE SET counted_sent_at = EXCLUDED.counted_sent_at
         WHERE t.counted_sent_at IS NULL
       RETURNING email_id`,
      [
        col(candidates, 'emailId'),
        col(candidates, 'projectId'),
        col(candidates, 'contactId'),
        col(candidates, 'campaignId'),
        col(candidates, 'occurredAt'),
      ],
    );
    return fresh.map((f) => f.email_id);
  }

  async addMinutely(m: EntityManager, sums: { projectId: string; minute: string; n: number }[]) {
    await m.query(
      `INSERT INTO ${tableName(m, ActivityMinutely)} AS t (project_id, minute, count)
       SELECT * FROM unnest($1::varchar[], $2::timestamptz[], $3::bigint[])
       ON CONFLICT (project_id, minute) DO UPDATE SET count = t.count + EXCLUDED.count`,
      [col(sums, 'projectId'), col(sums, 'minute'), col(sums, 'n')],
    );
  }

  /** Adds to the per-type counts; the last seen time only moves forward. */
  async addTypeCounts(m: EntityManager, sums: { projectId: string; type: string; n: number; lastSeenAt: string }[]) {
    await m.query(
      `INSERT INTO ${tableName(m, ActivityTypeCount)} AS t (project_id, type, count, last_seen_at)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::bigint[], $4::timestamptz[])
       ON CONFLICT (project_id, type) DO UPDATE
         SET count = t.count + EXCLUDED.count, last_seen_at = GREATEST(t.last_seen_at, EXCLUDED.last_seen_at)`,
      [col(sums, 'projectId'), col(sums, 'type'), col(sums, 'n'), col(sums, 'lastSeenAt')],
    );
  }

  /**
   * Records engagements (distinct by `engagementKey`, in key order: activity-counts'
   * `distinctEngagements`); returns the event ids of those that were a recipient's first of their kind.
   */
  async firstEngagements(m: EntityManager, rows: Engagement[]): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const byKey = new Map(rows.map((r) => [engagementKey(r), r]));
    const inserted: { project_id: string; campaign_id: string; recipient: string; kind: string }[] = await m.query(
      `INSERT INTO ${tableName(m, CampaignEngagement)} (project_id, campaign_id, recipient, kind)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[])
       ON CONFLICT DO NOTHING RETURNING project_id, campaign_id, recipient, kind`,
      [col(rows, 'projectId'), col(rows, 'campaignId'), col(rows, 'recipient'), col(rows, 'kind')],
    );
    return new Set(
      inserted.map(
        (i) =>
          byKey.get(
            engagementKey({ projectId: i.project_id, campaignId: i.campaign_id, recipient: i.recipient, kind: i.kind }),
          )!.eventId,
      ),
    );
  }

  /** Adds campaigns' counter deltas (a counter a delta does not name adds 0). */
  async addToCampaigns(m: EntityManager, counters: CampaignCounters[]): Promise<void> {
    const names = CAMPAIGN_COUNTERS;
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
   * The campaign of the email each contact received last within `windowMs` before each of these
   * unsubscribes, by the unsubscribe's event id (absent when there is none): one lateral look-up.
   */
  async lastCampaignBefore(
    m: EntityManager,
    unsubscribes: Pick<FeedItem, 'eventId' | 'projectId' | 'contactId' | 'occurredAt'>[],
    windowMs: number,
  ): Promise<Map<string, string>> {
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
        windowMs / 1000,
      ],
    );
    return new Map(latest.map((l) => [l.event_id, l.campaign_id]));
  }
}
