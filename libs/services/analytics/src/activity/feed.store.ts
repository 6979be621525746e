import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ActivityItem, CampaignStats } from '../projection/activity.entities.js';
import type { TimeRange } from '../time/query-range.js';

/** What narrows a project's feed (every filter optional; `range` inclusive at both ends). */
export interface FeedFilter {
  types?: string[];
  contactId?: string;
  campaignId?: string;
  range: Partial<TimeRange>;
}

/** A feed item as read, with its campaign's current name. */
export interface FeedRow {
  event_id: string;
  type: string;
  occurred_at: Date;
  /** `occurred_at` as PostgreSQL writes it: the cursor's key, exact to the microsecond. */
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

/** The feed's SQL conditions and their parameters (`$1` the project). */
function conditions(projectId: string, f: FeedFilter): { filters: string[]; params: unknown[] } {
  const filters = ['a.project_id = $1'];
  const params: unknown[] = [projectId];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    filters.push(sql(`$${params.length}`));
  };
  if (f.types?.length) add((n) => `a.type = ANY(${n}::varchar[])`, f.types);
  if (f.contactId) add((n) => `a.contact_id = ${n}`, f.contactId);
  if (f.campaignId) add((n) => `a.campaign_id = ${n}`, f.campaignId);
  if (f.range.from) add((n) => `a.occurred_at >= ${n}`, f.range.from);
  if (f.range.to) add((n) => `a.occurred_at <= ${n}`, f.range.to);
  return { filters, params };
}

/** Reads of the activity feed (`activity_items`): keyset pages newest first, and a capped count. */
@Injectable()
export class FeedStore {
  /**
   * Up to `limit` items of the project matching `f`, newest first by (occurred_at, event_id),
   * those after the keyset position `after` (a previous page's last item) when given.
   */
  rows(
    m: EntityManager,
    projectId: string,
    f: FeedFilter,
    after: { k: string | number; id: string } | undefined,
    limit: number,
  ): Promise<FeedRow[]> {
    const { filters: where, params: pageParams } = conditions(projectId, f);
    if (after) {
      pageParams.push(after.k, after.id);
      where.push(`(a.occurred_at, a.event_id) < ($${pageParams.length - 1}::timestamptz, $${pageParams.length}::uuid)`);
    }
    pageParams.push(limit);
    return m.query(
      `SELECT a.event_id, a.type, a.occurred_at, a.occurred_at::text AS occurred_key, a.contact_id, a.contact_email,
                a.email_id, a.email_subject, a.campaign_id, c.name AS campaign_name, a.workflow_id, a.workflow_name, a.data
           FROM ${tableName(m, ActivityItem)} a
           LEFT JOIN ${tableName(m, CampaignStats)} c ON c.project_id = a.project_id AND c.campaign_id = a.campaign_id
          WHERE ${where.join(' AND ')}
          ORDER BY a.occurred_at DESC, a.event_id DESC LIMIT $${pageParams.length}`,
      pageParams,
    );
  }

  /** How many items of the project match `f`, counting no further than `cap`. */
  async count(m: EntityManager, projectId: string, f: FeedFilter, cap: number): Promise<number> {
    const { filters, params } = conditions(projectId, f);
    const r: { n: string }[] = await m.query(
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${tableName(m, ActivityItem)} a WHERE ${filters.join(' AND ')} LIMIT ${cap}) x`,
      params,
    );
    return Number(r[0]!.n);
  }
}
