import {
  Topics,
  type CampaignLifecycleV1,
  type EventEnvelope,
  type ResourceReferencesChangedV1,
  type WorkflowExecutionV1,
} from '@herald/contracts';
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

/**
 * The items sorted by key, each key's in their order (a stable sort): the rows of a round are then
 * written in key order by every batch, so concurrent batches never deadlock on them.
 */
const inKeyOrder = <T>(items: T[], key: (t: T) => string): T[] =>
  [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/** The name of the newest event that names the campaign, whichever topic brought it. */
const NAME_IF_NEWER = `name = CASE WHEN t.name_at IS NULL OR t.name_at <= EXCLUDED.name_at THEN EXCLUDED.name ELSE t.name END,
         name_at = GREATEST(t.name_at, EXCLUDED.name_at)`;

/**
 * `campaign.*`: the campaign's state, schedule, subject and ledger size, newest event wins (a multi-row
 * upsert a round); its name when the event is newer than the one that gave the name (a references
 * event may have); its creation no later than the event.
 */
export async function campaignStates(m: EntityManager, events: EventEnvelope[]): Promise<void> {
  const key = (e: EventEnvelope) => `${e.projectId}\u0000${(e.payload as CampaignLifecycleV1).campaignId}`;
  for (const round of rounds(inKeyOrder(events, key), key)) {
    const p = round.map((e) => e.payload as CampaignLifecycleV1);
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

/**
 * `resource.references.changed` of a campaign: campaigns publishes it in the transaction that
 * creates, changes or deletes a campaign, so the campaign is known from its creation on (a `draft`
 * until a lifecycle event gives its state), with the name it has at the event's time, until the one
 * that says it was deleted. Other
 * resources' references (segments, workflows) are not analytics' business.
 */
export async function campaignReferences(m: EntityManager, events: EventEnvelope[]): Promise<void> {
  const campaigns = events.filter(
    (e) =>
      e.type === Topics.ResourceReferencesChanged &&
      (e.payload as ResourceReferencesChangedV1).resourceKind === 'campaign',
  );
  const key = (e: EventEnvelope) => `${e.projectId}\u0000${(e.payload as ResourceReferencesChangedV1).resourceId}`;
  for (const round of rounds(inKeyOrder(campaigns, key), key)) {
    const p = round.map((e) => e.payload as ResourceReferencesChangedV1);
    await m.query(
      `INSERT INTO ${tableName(m, CampaignStats)} AS t (project_id, campaign_id, name, name_at, created_at, deleted_at, state)
       SELECT *, 'draft' FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::timestamptz[], $4::timestamptz[],
         $5::timestamptz[])
       ON CONFLICT (project_id, campaign_id) DO UPDATE SET
         ${NAME_IF_NEWER},
         created_at = LEAST(t.created_at, EXCLUDED.created_at),
         deleted_at = COALESCE(t.deleted_at, EXCLUDED.deleted_at)`,
      [
        round.map((e) => e.projectId),
        p.map((x) => x.resourceId),
        p.map((x) => x.resourceName),
        round.map((e) => e.occurredAt),
        round.map((e, i) => (p[i]!.deleted ? e.occurredAt : null)),
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
