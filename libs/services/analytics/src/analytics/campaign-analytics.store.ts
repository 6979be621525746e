import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CampaignStats, WorkflowExecutionState } from '../projection/activity.entities.js';

export const TOP_CAMPAIGN_METRICS = ['opens', 'clicks', 'openRate', 'clickRate'] as const;
export type TopCampaignMetric = (typeof TOP_CAMPAIGN_METRICS)[number];

/** A campaign's row of `campaign_stats` as the views read it. */
export interface StatsRow {
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

/** A scheduled campaign of the upcoming list. */
export interface ScheduledRow {
  campaign_id: string;
  name: string | null;
  subject: string | null;
  scheduled_at: Date | null;
  estimated_recipients: number | null;
}

/** A workflow execution waiting on a step, of the upcoming list. */
export interface WaitingRow {
  execution_id: string;
  workflow_id: string;
  workflow_name: string;
  contact_id: string;
  email: string | null;
  step_id: string | null;
  step_type: string | null;
  step_name: string | null;
  due_at: Date | null;
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

const COLUMNS = `campaign_id, name, subject, state, scheduled_at, recipients, sent, delivered, opens_total, opens_unique,
  opens_prefetch, clicks_total, clicks_unique, bounces, complaints, failed, unsubscribes`;

/**
 * Reads of the campaign counters (`campaign_stats`) and of the executions' states
 * (`workflow_executions`) behind the campaign views and the upcoming list. A campaign marked
 * deleted is never read.
 */
@Injectable()
export class CampaignAnalyticsStore {
  /** The campaign's row, unless it is unknown or deleted. */
  async one(m: EntityManager, projectId: string, campaignId: string): Promise<StatsRow | undefined> {
    const [row] = (await m.query(
      `SELECT ${COLUMNS} FROM ${tableName(m, CampaignStats)} WHERE project_id = $1 AND campaign_id = $2 AND deleted_at IS NULL`,
      [projectId, campaignId],
    )) as StatsRow[];
    return row;
  }

  /**
   * `limit` campaigns of the project from `offset`, newest first by creation (those whose creation is
   * not known yet last; ties by id).
   */
  page(m: EntityManager, projectId: string, limit: number, offset: number): Promise<StatsRow[]> {
    return m.query(
      `SELECT ${COLUMNS} FROM ${tableName(m, CampaignStats)} WHERE project_id = $1 AND deleted_at IS NULL
          ORDER BY created_at DESC NULLS LAST, campaign_id DESC LIMIT $2 OFFSET $3`,
      [projectId, limit, offset],
    );
  }

  /** How many campaigns the project has. */
  async count(m: EntityManager, projectId: string): Promise<number> {
    const [{ total }] = (await m.query(
      `SELECT count(*)::int AS total FROM ${tableName(m, CampaignStats)} WHERE project_id = $1 AND deleted_at IS NULL`,
      [projectId],
    )) as [{ total: number }];
    return total;
  }

  /**
   * The project's first `limit` campaigns with sends by `metric` (unique opens or clicks, or their
   * rates over the reached emails; a campaign that reached none last), ties by id.
   */
  top(m: EntityManager, projectId: string, metric: TopCampaignMetric, limit: number): Promise<StatsRow[]> {
    return m.query(
      `SELECT ${COLUMNS} FROM ${tableName(m, CampaignStats)}
        WHERE project_id = $1 AND sent > 0 AND deleted_at IS NULL ORDER BY ${ORDER[metric]}, campaign_id LIMIT $2`,
      [projectId, limit],
    );
  }

  /** The project's first `limit` scheduled campaigns, soonest first. */
  scheduled(m: EntityManager, projectId: string, limit: number): Promise<ScheduledRow[]> {
    return m.query(
      `SELECT campaign_id, name, subject, scheduled_at, estimated_recipients FROM ${tableName(m, CampaignStats)}
          WHERE project_id = $1 AND state = 'scheduled' AND deleted_at IS NULL ORDER BY scheduled_at, campaign_id LIMIT $2`,
      [projectId, limit],
    );
  }

  /** The project's first `limit` executions waiting on a step, soonest due first (no deadline last). */
  waiting(m: EntityManager, projectId: string, limit: number): Promise<WaitingRow[]> {
    return m.query(
      `SELECT execution_id, workflow_id, workflow_name, contact_id, email, step_id, step_type, step_name, due_at
           FROM ${tableName(m, WorkflowExecutionState)}
          WHERE project_id = $1 AND status = 'WAITING' ORDER BY due_at NULLS LAST, execution_id LIMIT $2`,
      [projectId, limit],
    );
  }
}
