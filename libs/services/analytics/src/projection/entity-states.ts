import { Topics, type CampaignLifecycleV1, type EventEnvelope, type WorkflowExecutionV1 } from '@herald/contracts';
import { tableName } from '@herald/persistence';
import type { EntityManager } from 'typeorm';
import { CampaignStats, WorkflowExecutionState } from './activity.entities.js';

/**
 * Splits items into rounds in which each key appears once, keeping their order: round `i` holds the
 * `i`-th item of every key. One multi-row upsert per round then gives what one upsert per item in
 * order gives (an `ON CONFLICT DO UPDATE` statement may not touch a row twice); a batch holds one
 * round, or a few when an execution or a campaign changes several times in it.
 */
export function rounds<T>(items: T[], key: (t: T) => string): T[][] {
  const seen = new Map<string, number>();
  const out: T[][] = [];
  for (const it of items) {
    const k = key(it);
    const i = seen.get(k) ?? 0;
    seen.set(k, i + 1);
    (out[i] ??= []).push(it);
  }
  return out;
}

/** `campaign.*`: the campaign's name, state, schedule and ledger size, newest event wins (a multi-row upsert a round). */
export async function campaignStates(m: EntityManager, events: EventEnvelope[]): Promise<void> {
  for (const round of rounds(events, (e) => `${e.projectId}\u0000${(e.payload as CampaignLifecycleV1).campaignId}`)) {
    const p = round.map((e) => e.payload as CampaignLifecycleV1);
    await m.query(
      `INSERT INTO ${tableName(m, CampaignStats)} AS t
         (project_id, campaign_id, name, subject, state, state_at, scheduled_at, estimated_recipients, recipients)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::timestamptz[],
         $7::timestamptz[], $8::int[], $9::int[])
       ON CONFLICT (project_id, campaign_id) DO UPDATE SET
         name = EXCLUDED.name, subject = EXCLUDED.subject, state = EXCLUDED.state, state_at = EXCLUDED.state_at,
         scheduled_at = COALESCE(EXCLUDED.scheduled_at, t.scheduled_at),
         estimated_recipients = COALESCE(EXCLUDED.estimated_recipients, t.estimated_recipients),
         recipients = COALESCE(EXCLUDED.recipients, t.recipients)
       WHERE t.state_at IS NULL OR t.state_at <= EXCLUDED.state_at`,
      [
        round.map((e) => e.projectId),
        p.map((x) => x.campaignId),
        p.map((x) => x.name),
        p.map((x) => x.subject),
        round.map((e) => e.type.slice('campaign.'.length)),
        p.map((x) => x.at),
        p.map((x) => x.scheduledAt ?? null),
        p.map((x) => x.estimatedRecipients ?? null),
        p.map((x) => x.recipients ?? null),
      ],
    );
  }
}

/** `workflow.*`: each execution's latest status and the step it waits on, newest event wins (a multi-row upsert a round). */
export async function workflowStates(m: EntityManager, events: EventEnvelope[]): Promise<void> {
  for (const round of rounds(events, (e) => (e.payload as WorkflowExecutionV1).executionId)) {
    const p = round.map((e) => e.payload as WorkflowExecutionV1);
    const waiting = round.map((e) => e.type === Topics.WorkflowWaiting);
    await m.query(
      `INSERT INTO ${tableName(m, WorkflowExecutionState)} AS t (execution_id, project_id, workflow_id, workflow_name,
         contact_id, email, status, step_id, step_type, step_name, due_at, state_at)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::varchar[],
         $7::varchar[], $8::varchar[], $9::varchar[], $10::varchar[], $11::timestamptz[], $12::timestamptz[])
       ON CONFLICT (execution_id) DO UPDATE SET
         workflow_name = EXCLUDED.workflow_name, email = COALESCE(EXCLUDED.email, t.email), status = EXCLUDED.status,
         step_id = EXCLUDED.step_id, step_type = EXCLUDED.step_type, step_name = EXCLUDED.step_name,
         due_at = EXCLUDED.due_at, state_at = EXCLUDED.state_at
       WHERE t.state_at <= EXCLUDED.state_at AND t.project_id = EXCLUDED.project_id`,
      [
        p.map((x) => x.executionId),
        round.map((e) => e.projectId),
        p.map((x) => x.workflowId),
        p.map((x) => x.workflowName),
        p.map((x) => x.contactId),
        p.map((x) => x.email ?? null),
        p.map((x, i) => (waiting[i] ? 'WAITING' : x.status)),
        p.map((x) => x.stepId ?? null),
        p.map((x) => x.stepType ?? null),
        p.map((x) => x.stepName ?? null),
        p.map((x, i) => (waiting[i] ? (x.dueAt ?? null) : null)),
        p.map((x) => x.at),
      ],
    );
  }
}
