import { notFoundError } from '@herald/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ANALYTICS } from '../consumer.js';
import { CampaignAnalyticsStore, type StatsRow, type TopCampaignMetric } from './campaign-analytics.store.js';

export { TOP_CAMPAIGN_METRICS, type TopCampaignMetric } from './campaign-analytics.store.js';

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

/** Campaign-level reads over the per-campaign counters, and the upcoming list. */
@Injectable()
export class CampaignAnalytics {
  constructor(
    @InjectDataSource(ANALYTICS) private readonly db: DataSource,
    private readonly store: CampaignAnalyticsStore,
  ) {}

  async stats(projectId: string, campaignId: string): Promise<CampaignView> {
    const row = await this.store.one(this.db.manager, projectId, campaignId);
    if (!row) throw notFoundError('Campaign', campaignId);
    return campaignView(row);
  }

  /**
   * Every campaign of the project, newest first (by creation; a campaign known from its emails only,
   * whose creation is not known yet, last; ties by id), one page of them, with the total.
   */
  async list(projectId: string, page: number, pageSize: number): Promise<CampaignList> {
    const m = this.db.manager;
    const [rows, total] = await Promise.all([
      this.store.page(m, projectId, pageSize, (page - 1) * pageSize),
      this.store.count(m, projectId),
    ]);
    return { campaigns: rows.map(campaignView), page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
  }

  async top(projectId: string, metric: TopCampaignMetric, limit: number): Promise<{ campaigns: CampaignView[] }> {
    const rows = await this.store.top(this.db.manager, projectId, metric, limit);
    return { campaigns: rows.map(campaignView) };
  }

  /** Scheduled campaigns not yet sending, and executions waiting on a step, soonest first. */
  async upcoming(projectId: string, limit: number) {
    const m = this.db.manager;
    const [campaigns, executions] = await Promise.all([
      this.store.scheduled(m, projectId, limit),
      this.store.waiting(m, projectId, limit),
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
