import {
  Topics,
  type CampaignLifecycleV1,
  type EventEnvelope,
  type ResourceReferencesChangedV1,
  type WorkflowExecutionV1,
} from '@herald/contracts';
import type { CampaignReferenceRow, CampaignStateRow, WorkflowStateRow } from './entity-states-store.js';

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

/**
 * `campaign.*` events (others are ignored) as the campaign states they give, in rounds (EntityStatesStore
 * writes one a statement), each in campaign key order.
 */
export function campaignStateRounds(events: EventEnvelope[]): CampaignStateRow[][] {
  const lifecycle = events.filter((e) => e.type.startsWith('campaign.'));
  const key = (e: EventEnvelope) => `${e.projectId}\u0000${(e.payload as CampaignLifecycleV1).campaignId}`;
  return rounds(inKeyOrder(lifecycle, key), key).map((round) =>
    round.map((e) => {
      const x = e.payload as CampaignLifecycleV1;
      return {
        projectId: e.projectId,
        campaignId: x.campaignId,
        name: x.name,
        subject: x.subject,
        state: e.type.slice('campaign.'.length),
        at: x.at,
        scheduledAt: x.scheduledAt ?? null,
        estimatedRecipients: x.estimatedRecipients ?? null,
        recipients: x.recipients ?? null,
      };
    }),
  );
}

/**
 * `resource.references.changed` of a campaign: campaigns publishes it in the transaction that
 * creates, changes or deletes a campaign, so the campaign is known from its creation on (a `draft`
 * until a lifecycle event gives its state), with the name it has at the event's time, until the one
 * that says it was deleted. Other resources' references (segments, workflows) are not analytics'
 * business. In rounds, each in campaign key order.
 */
export function campaignReferenceRounds(events: EventEnvelope[]): CampaignReferenceRow[][] {
  const campaigns = events.filter(
    (e) =>
      e.type === Topics.ResourceReferencesChanged &&
      (e.payload as ResourceReferencesChangedV1).resourceKind === 'campaign',
  );
  const key = (e: EventEnvelope) => `${e.projectId}\u0000${(e.payload as ResourceReferencesChangedV1).resourceId}`;
  return rounds(inKeyOrder(campaigns, key), key).map((round) =>
    round.map((e) => {
      const x = e.payload as ResourceReferencesChangedV1;
      return {
        projectId: e.projectId,
        campaignId: x.resourceId,
        name: x.resourceName,
        at: e.occurredAt,
        deletedAt: x.deleted ? e.occurredAt : null,
      };
    }),
  );
}

/**
 * `workflow.*` events (others are ignored) as each execution's status and the step it waits on
 * (`workflow.waiting`: WAITING until `dueAt`; any other: the event's status, no deadline), in rounds,
 * in the order of the events.
 */
export function workflowStateRounds(events: EventEnvelope[]): WorkflowStateRow[][] {
  const workflow = events.filter((e) => e.type.startsWith('workflow.'));
  return rounds(workflow, (e) => (e.payload as WorkflowExecutionV1).executionId).map((round) =>
    round.map((e) => {
      const x = e.payload as WorkflowExecutionV1;
      const waiting = e.type === Topics.WorkflowWaiting;
      return {
        executionId: x.executionId,
        projectId: e.projectId,
        workflowId: x.workflowId,
        workflowName: x.workflowName,
        contactId: x.contactId,
        email: x.email ?? null,
        status: waiting ? 'WAITING' : x.status,
        stepId: x.stepId ?? null,
        stepType: x.stepType ?? null,
        stepName: x.stepName ?? null,
        dueAt: waiting ? (x.dueAt ?? null) : null,
        at: x.at,
      };
    }),
  );
}
