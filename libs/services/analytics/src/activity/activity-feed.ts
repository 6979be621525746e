import { cursorPage, decodeCursor, type CursorPage } from '@herald/http';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ANALYTICS } from '../consumer.js';
import { FeedStore, type FeedFilter, type FeedRow } from './feed.store.js';

/** `total` of the feed's first page counts at most this many items (a capped count: the feed can hold millions). */
export const FEED_TOTAL_CAP = 1_000;

/** A page of the feed: its filters, at most `limit` items, after `cursor` (a previous page's). */
export interface FeedQuery extends FeedFilter {
  limit: number;
  cursor?: string;
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

/**
 * The activity feed of one project: newest first, keyset-paginated over (occurred_at, event_id); the
 * first page (no cursor) also counts the matching items, at most FEED_TOTAL_CAP.
 */
@Injectable()
export class ActivityFeed {
  constructor(
    @InjectDataSource(ANALYTICS) private readonly db: DataSource,
    private readonly store: FeedStore,
  ) {}

  async page(projectId: string, q: FeedQuery): Promise<CursorPage<ActivityView>> {
    const m = this.db.manager;
    const after = q.cursor ? decodeCursor(q.cursor, { timestamp: true }) : undefined;
    const [rows, total] = await Promise.all([
      this.store.rows(m, projectId, q, after, q.limit + 1),
      q.cursor ? Promise.resolve(0) : this.store.count(m, projectId, q, FEED_TOTAL_CAP),
    ]);
    const page = cursorPage(rows, q.limit, (r) => ({ k: r.occurred_key, id: r.event_id }), total);
    return { ...page, data: page.data.map(view) };
  }
}
