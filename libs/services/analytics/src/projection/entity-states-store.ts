import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CampaignStats, WorkflowExecutionState } from './activity.entities.js';

/** A campaign's state as one `campaign.*` event gives it (`campaign_stats`). */
export interface CampaignStateRow {
  projectId: string;
  campaignId: string;
  name: string;
  subject: string;
  /** The topic's last part: `scheduled`, `sending`, `sent`, `cancelled`. */
  state: string;
  /** The event's own time: the state's, the name's and the earliest creation it can tell. */
  at: string;
  scheduledAt: string | null;
  estimatedRecipients: number | null;
  recipients: number | null;
}

/** A campaign as one `resource.references.changed` event names it. */
export interface CampaignReferenceRow {
  projectId: string;
  campaignId: string;
  name: string;
  /** The event's `occurredAt`: the name's time and the earliest creation it can tell. */
  at: string;
  /** The event's `occurredAt` when it says the campaign was deleted, else null. */
  deletedAt: string | null;
}

/** An execution's state as one `workflow.*` event gives it (`workflow_executions`). */
export interface WorkflowStateRow {
  executionId: string;
  projectId: string;
  workflowId: string;
  workflowName: string;
  contactId: string;
  email: string | null;
  status: string;
  stepId: string | null;
  stepType: string | null;
  stepName: string | null;
  dueAt: string | null;
  at: string;
}

const col = <T, K extends keyof T>(rows: T[], k: K): T[K][] => rows.map((r) => r[k]);

/** The name of the newest event that names the campaign, whichever topic brought it. */
const NAME_IF_NEWER = `name = CASE WHEN t.name_at IS NULL OR t.name_at <= EXCLUDED.name_at THEN EXCLUDED.name ELSE t.name END,
         name_at = GREATEST(t.name_at, EXCLUDED.name_at)`;

/**
 * The campaign and workflow execution states of the projection: each write one multi-row upsert of a
 * *round* (entity-states.ts: no key twice in a statement), in the caller's transaction, newest event
 * winning (a late or replayed older event changes nothing).
 */
@Injectable()
export class EntityStatesStore {
  /**
   * `campaign.*`: the campaign's state, schedule, subject and ledger size when the event is newer than
   * the state's (a schedule or a size the event does not give stays); its name when the event is newer
   * than the one that gave the name; its creation no later than the event.
   */
  async campaignStates(m: EntityManager, round: CampaignStateRow[]): Promise<void> {
    const newer = `(t.state_at IS NULL OR t.state_at <= EXCLUDED.state_at)`;
    const ifNewer = (column: string, value = `EXCLUDED.${column}`) =>
      `${column} = CASE WHEN ${newer} THEN ${value} ELSE t.${column} END`;
    await m.query(
      `INSERT INTO ${tableName(m, CampaignStats)} AS t
         (project_id, campaign_id, name, subject, state, state_at, scheduled_at, estimated_recipients, recipients,
          name_at, created_at)
       SELECT *, state_at, state_at FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[],
         $5::varchar[], $6::timestamptz[], $7::timestamptz[], $8::int[], $9::int[])
         AS e(project_id, campaign_id, name, subject, state, state_at, scheduled_at, estimated_recipients, recipients)
       ON CONFLICT (project_id, campaign_id) DO UPDATE SET
         ${NAME_IF_NEWER},
         ${ifNewer('subject')}, ${ifNewer('state')}, ${ifNewer('state_at')},
         ${ifNewer('scheduled_at', 'COALESCE(EXCLUDED.scheduled_at, t.scheduled_at)')},
         ${ifNewer('estimated_recipients', 'COALESCE(EXCLUDED.estimated_recipients, t.estimated_recipients)')},
         ${ifNewer('recipients', 'COALESCE(EXCLUDED.recipients, t.recipients)')},
         created_at = LEAST(t.created_at, EXCLUDED.created_at)`,
      [
        col(round, 'projectId'),
        col(round, 'campaignId'),
        col(round, 'name'),
        col(round, 'subject'),
        col(round, 'state'),
        col(round, 'at'),
        col(round, 'scheduledAt'),
        col(round, 'estimatedRecipients'),
        col(round, 'recipients'),
      ],
    );
  }

  /**
   * A campaign's references: known from then on (a `draft` until a lifecycle event gives its state),
   * its name when newer than the one it has, its creation no later than the event, deleted for good
   * once an event says so.
   */
  async campaignReferences(m: EntityManager, round: CampaignReferenceRow[]): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, CampaignStats)} AS t (project_id, campaign_id, name, name_at, created_at, deleted_at, state)
       SELECT *, 'draft' FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::timestamptz[], $4::timestamptz[],
         $5::timestamptz[])
       ON CONFLICT (project_id, campaign_id) DO UPDATE SET
         ${NAME_IF_NEWER},
         created_at = LEAST(t.created_at, EXCLUDED.created_at),
         deleted_at = COALESCE(t.deleted_at, EXCLUDED.deleted_at)`,
      [
        col(round, 'projectId'),
        col(round, 'campaignId'),
        col(round, 'name'),
        col(round, 'at'),
        col(round, 'deletedAt'),
      ],
    );
  }

  /**
   * Each execution's latest status and the step it waits on, when the event is newer (and of the
   * execution's project). Events of one instant are ordered by the lifecycle (running, then waiting,
   * then finished): `workflow.started` and `workflow.waiting` travel on different topics, which Kafka
   * does not order against each other, and an execution that waits at once stamps both in the same
   * millisecond; the later applied must not put a waiting execution back to running.
   */
  async workflowStates(m: EntityManager, round: WorkflowStateRow[]): Promise<void> {
    await m.query(
      `INSERT INTO ${tableName(m, WorkflowExecutionState)} AS t (execution_id, project_id, workflow_id, workflow_name,
         contact_id, email, status, step_id, step_type, step_name, due_at, state_at)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::varchar[],
         $7::varchar[], $8::varchar[], $9::varchar[], $10::varchar[], $11::timestamptz[], $12::timestamptz[])
       ON CONFLICT (execution_id) DO UPDATE SET
         workflow_name = EXCLUDED.workflow_name, email = COALESCE(EXCLUDED.email, t.email), status = EXCLUDED.status,
         step_id = EXCLUDED.step_id, step_type = EXCLUDED.step_type, step_name = EXCLUDED.step_name,
         due_at = EXCLUDED.due_at, state_at = EXCLUDED.state_at
       WHERE t.project_id = EXCLUDED.project_id AND (t.state_at < EXCLUDED.state_at
         OR (t.state_at = EXCLUDED.state_at AND ${LIFECYCLE_RANK('EXCLUDED.status')} >= ${LIFECYCLE_RANK('t.status')}))`,
      [
        col(round, 'executionId'),
        col(round, 'projectId'),
        col(round, 'workflowId'),
        col(round, 'workflowName'),
        col(round, 'contactId'),
        col(round, 'email'),
        col(round, 'status'),
        col(round, 'stepId'),
        col(round, 'stepType'),
        col(round, 'stepName'),
        col(round, 'dueAt'),
        col(round, 'at'),
      ],
    );
  }
}

/** An execution status's place in its lifecycle, in SQL: running 0, waiting 1, finished 2 (ties of `state_at`). */
const LIFECYCLE_RANK = (column: string): string =>
  `(CASE ${column} WHEN 'RUNNING' THEN 0 WHEN 'WAITING' THEN 1 ELSE 2 END)`;
