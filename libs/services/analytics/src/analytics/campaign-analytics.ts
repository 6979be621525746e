import { notFoundError } from '@herald/core';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ANALYTICS } from '../consumer.js';
import { CampaignStats, WorkflowExecutionState } from '../projection/activity.entities.js';

export const TOP_CAMPAIGN_METRICS = ['opens', 'clicks', 'openRate', 'clickRate'] as const;
export type TopCampaignMetric = (typeof TOP_CAMPAIGN_METRICS)[number];

interface StatsRow {
  campaign_id: string;
  name: string | null;
  subject: string | null;
  state: string;
  scheduled_at: Date | null;
  recipients: number | null;
  sent: number;
  delivered: number;
  opens_total: number;
  opens_unique: number;
  opens_prefetch: number;
  clicks_total: number;
  clicks_unique: number;
  bounces: number;
  complaints: number;
  failed: number;
  unsubscribes: number;
}

/**
 * The rates' denominator: the delivered emails, or, where the relay sends no delivery
 * notifications, the sent ones less the bounced ones.
 */
const REACHED = `GREATEST(CASE WHEN delivered > 0 THEN delivered ELSE sent - bounces END, 0)`;
const ORDER: Record<TopCampaignMetric, string> = {
  opens: 'opens_unique DESC',
  clicks: 'clicks_unique DESC',
  openRate: `opens_unique::float8 / NULLIF(${REACHED}, 0) DESC NULLS LAST`,
  clickRate: `clicks_unique::float8 / NULLIF(${REACHED}, 0) DESC NULLS LAST`,
};

const rate = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 10_000) / 10_000 : 0);

export function campaignView(r: StatsRow) {
  const reached = Math.max(r.delivered > 0 ? r.delivered : r.sent - r.bounces, 0);
  return {
    campaignId: r.campaign_id,
    name: r.name,
    subject: r.subject,
    state: r.state,
    recipients: r.recipients ?? 0,
    sent: r.sent,
    delivered: r.delivered,
    uniqueOpens: r.opens_unique,
    totalOpens: r.opens_total,
    prefetchOpens: r.opens_prefetch,
    uniqueClicks: r.clicks_unique,
    totalClicks: r.clicks_total,
    bounces: r.bounces,
    complaints: r.complaints,
    failed: r.failed,
    unsubscribes: r.unsubscribes,
    rates: {
      delivery: rate(r.delivered, r.sent),
      open: rate(r.opens_unique, reached),
      click: rate(r.clicks_unique, reached),
      clickToOpen: rate(r.clicks_unique, r.opens_unique),
      bounce: rate(r.bounces, r.sent),
      complaint: rate(r.complaints, reached),
      unsubscribe: rate(r.unsubscribes, reached),
    },
  };
}
export type CampaignView = ReturnType<typeof campaignView>;

/** `/analytics/campaign-stats` without a campaign id: a page of the project's campaigns, newest first. */
export interface CampaignList {
  campaigns: CampaignView[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

const COLUMNS = `campaign_id, name, subject, state, scheduled_at, recipients, sent, delivered, opens_total, opens_unique,
  opens_prefetch, clicks_total, clicks_unique, bounces, complaints, failed, unsubscribes`;

/** Campaign-level reads over the per-campaign counters, and the upcoming list. */
@Injectable()
export class CampaignAnalytics {
  constructor(@InjectDataSource(ANALYTICS) private readonly db: DataSource) {}

  async stats(projectId: string, campaignId: string): Promise<CampaignView> {
    const [row] = (await this.db.query(
      `SELECT ${COLUMNS} FROM ${tableName(this.db, CampaignStats)} WHERE project_id = $1 AND campaign_id = $2 AND deleted_at IS NULL`,
      [projectId, campaignId],
    )) as StatsRow[];
    if (!row) throw notFoundError('Campaign', campaignId);
    return campaignView(row);
  }

  /**
   * Every campaign of the project, newest first (by creation; a campaign known from its emails only,
   * whose creation is not known yet, last; ties by id), one page of them, with the total.
   */
  async list(projectId: string, page: number, pageSize: number): Promise<CampaignList> {
    const table = tableName(this.db, CampaignStats);
    const [rows, [{ total }]] = await Promise.all([
      this.db.query(
        `SELECT ${COLUMNS} FROM ${table} WHERE project_id = $1 AND deleted_at IS NULL
          ORDER BY created_at DESC NULLS LAST, campaign_id DESC LIMIT $2 OFFSET $3`,
        [projectId, pageSize, (page - 1) * pageSize],
      ) as Promise<StatsRow[]>,
      this.db.query(`SELECT count(*)::int AS total FROM ${table} WHERE project_id = $1 AND deleted_at IS NULL`, [
        projectId,
      ]) as Promise<[{ total: number }]>,
    ]);
    return { campaigns: rows.map(campaignView), page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
  }

  async top(projectId: string, metric: TopCampaignMetric, limit: number): Promise<{ campaigns: CampaignView[] }> {
    const rows = (await this.db.query(
      `SELECT ${COLUMNS} FROM ${tableName(this.db, CampaignStats)}
        WHERE project_id = $1 AND sent > 0 AND deleted_at IS NULL ORDER BY ${ORDER[metric]}, campaign_id LIMIT $2`,
      [projectId, limit],
    )) as StatsRow[];
    return { campaigns: rows.map(campaignView) };
  }

  /** Scheduled campaigns not yet sending, and executions waiting on a step, soonest first. */
  async upcoming(projectId: string, limit: number) {
    const [campaigns, executions] = await Promise.all([
      this.db.query(
        `SELECT campaign_id, name, subject, scheduled_at, estimated_recipients FROM ${tableName(this.db, CampaignStats)}
          WHERE project_id = $1 AND state = 'scheduled' AND deleted_at IS NULL ORDER BY scheduled_at, campaign_id LIMIT $2`,
        [projectId, limit],
      ) as Promise<
        {
          campaign_id: string;
          name: string | null;
          subject: string | null;
          scheduled_at: Date | null;
          estimated_recipients: number | null;
        }[]
      >,
      this.db.query(
        `SELECT execution_id, workflow_id, workflow_name, contact_id, email, step_id, step_type, step_name, due_at
           FROM ${tableName(this.db, WorkflowExecutionState)}
          WHERE project_id = $1 AND status = 'WAITING' ORDER BY due_at NULLS LAST, execution_id LIMIT $2`,
        [projectId, limit],
      ) as Promise<
        {
          execution_id: string;
          workflow_id: string;
          workflow_name: string;
          contact_id: string;
          email: string | null;
          step_id: string | null;
          step_type: string | null;
          step_name: string | null;
          due_at: Date | null;
        }[]
      >,
    ]);
    return {
      campaigns: campaigns.map((c) => ({
        campaign: { id: c.campaign_id, name: c.name, subject: c.subject },
        scheduledAt: c.scheduled_at?.toISOString() ?? null,
        estimatedRecipients: c.estimated_recipients,
      })),
      executions: executions.map((x) => ({
        executionId: x.execution_id,
        workflow: { id: x.workflow_id, name: x.workflow_name },
        contact: { id: x.contact_id, email: x.email },
        nextStep: { id: x.step_id, type: x.step_type, name: x.step_name },
        dueAt: x.due_at?.toISOString() ?? null,
      })),
    };
  }
}
