import { cursorPage, decodeCursor, type CursorPage } from '@herald/http';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ANALYTICS } from '../consumer.js';
import { ActivityItem, CampaignStats } from '../projection/activity.entities.js';
import type { TimeRange } from './query-range.js';

/** `total` of the feed's first page counts at most this many items (a capped count: the feed can hold millions). */
export const FEED_TOTAL_CAP = 1_000;

export interface FeedQuery {
  limit: number;
  cursor?: string;
  types?: string[];
  contactId?: string;
  campaignId?: string;
  range: Partial<TimeRange>;
}

export interface ActivityView {
  id: string;
  type: string;
  occurredAt: string;
  contact: { id: string | null; email: string | null } | null;
  email?: { id: string; subject: string | null };
  campaign?: { id: string; name: string | null };
  workflow?: { id: string; name: string | null };
  data: Record<string, unknown>;
}

interface FeedRow {
  event_id: string;
  type: string;
  occurred_at: Date;
  occurred_key: string;
  contact_id: string | null;
  contact_email: string | null;
  email_id: string | null;
  email_subject: string | null;
  campaign_id: string | null;
  campaign_name: string | null;
  workflow_id: string | null;
  workflow_name: string | null;
  data: Record<string, unknown>;
}

const view = (r: FeedRow): ActivityView => ({
  id: r.event_id,
  type: r.type,
  occurredAt: r.occurred_at.toISOString(),
  contact: r.contact_id || r.contact_email ? { id: r.contact_id, email: r.contact_email } : null,
  ...(r.email_id ? { email: { id: r.email_id, subject: r.email_subject } } : {}),
  ...(r.campaign_id ? { campaign: { id: r.campaign_id, name: r.campaign_name } } : {}),
  ...(r.workflow_id ? { workflow: { id: r.workflow_id, name: r.workflow_name } } : {}),
  data: r.data,
});

/** The activity feed of one project: newest first, keyset-paginated over (occurred_at, event_id). */
@Injectable()
export class ActivityFeed {
  constructor(@InjectDataSource(ANALYTICS) private readonly db: DataSource) {}

  async page(projectId: string, q: FeedQuery): Promise<CursorPage<ActivityView>> {
    const filters = ['a.project_id = $1'];
    const params: unknown[] = [projectId];
    const add = (sql: (n: string) => string, value: unknown) => {
      params.push(value);
      filters.push(sql(`$${params.length}`));
    };
    if (q.types?.length) add((n) => `a.type = ANY(${n}::varchar[])`, q.types);
    if (q.contactId) add((n) => `a.contact_id = ${n}`, q.contactId);
    if (q.campaignId) add((n) => `a.campaign_id = ${n}`, q.campaignId);
    if (q.range.from) add((n) => `a.occurred_at >= ${n}`, q.range.from);
    if (q.range.to) add((n) => `a.occurred_at <= ${n}`, q.range.to);
    const where = [...filters];
    const pageParams = [...params];
    if (q.cursor) {
      const pos = decodeCursor(q.cursor, { timestamp: true });
      pageParams.push(pos.k, pos.id);
      where.push(`(a.occurred_at, a.event_id) < ($${pageParams.length - 1}::timestamptz, $${pageParams.length}::uuid)`);
    }
    pageParams.push(q.limit + 1);
    const items = tableName(this.db, ActivityItem);
    const [rows, total] = await Promise.all([
      this.db.query(
        `SELECT a.event_id, a.type, a.occurred_at, a.occurred_at::text AS occurred_key, a.contact_id, a.contact_email,
                a.email_id, a.email_subject, a.campaign_id, c.name AS campaign_name, a.workflow_id, a.workflow_name, a.data
           FROM ${items} a
           LEFT JOIN ${tableName(this.db, CampaignStats)} c ON c.project_id = a.project_id AND c.campaign_id = a.campaign_id
          WHERE ${where.join(' AND ')}
          ORDER BY a.occurred_at DESC, a.event_id DESC LIMIT $${pageParams.length}`,
        pageParams,
      ) as Promise<FeedRow[]>,
      q.cursor
        ? Promise.resolve(0)
        : this.db
            .query(
              `SELECT count(*) AS n FROM (SELECT 1 FROM ${items} a WHERE ${filters.join(' AND ')} LIMIT ${FEED_TOTAL_CAP}) x`,
              params,
            )
            .then((r: { n: string }[]) => Number(r[0]!.n)),
    ]);
    const page = cursorPage(rows, q.limit, (r) => ({ k: r.occurred_key, id: r.event_id }), total);
    return { ...page, data: page.data.map(view) };
  }
}
