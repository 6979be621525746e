import {
  CampaignCancelled,
  CampaignScheduled,
  CampaignSending,
  CampaignSent,
  type CampaignLifecycleV1,
  type ResourceReference,
} from '@herald/contracts';
import { parseFilter, referencesOf } from '@herald/filters';
import { publishReferences, type Outbox } from '@herald/messaging';
import type { EntityManager } from 'typeorm';
import { CAMPAIGNS } from '../consumer.js';
import type { Campaign } from './campaign.entity.js';
import { isActive } from './campaign-state.js';

const CONTRACTS = {
  scheduled: CampaignScheduled,
  sending: CampaignSending,
  sent: CampaignSent,
  cancelled: CampaignCancelled,
} as const;

export type CampaignFact = keyof typeof CONTRACTS;
export type LifecycleCounts = Pick<
  CampaignLifecycleV1,
  'estimatedRecipients' | 'recipients' | 'sent' | 'skipped' | 'failed'
>;

/** Publishes `campaign.<fact>` through the outbox, in the caller's transaction. */
export async function publishLifecycle(
  outbox: Outbox,
  m: EntityManager,
  fact: CampaignFact,
  c: Campaign,
  counts: LifecycleCounts = {},
  correlationId?: string,
): Promise<void> {
  const event = CONTRACTS[fact].create({
    projectId: c.projectId,
    source: CAMPAIGNS,
    payload: {
      campaignId: c.id,
      name: c.name,
      subject: c.subject,
      audienceType: c.audienceType,
      ...(c.segmentId ? { segmentId: c.segmentId } : {}),
      at: new Date().toISOString(),
      ...(fact === 'scheduled' && c.scheduledAt ? { scheduledAt: new Date(c.scheduledAt).toISOString() } : {}),
      ...counts,
    },
    ...(correlationId ? { correlationId } : {}),
  });
  await outbox.add(m, event);
}

/**
 * What a campaign references (docs/adr/0011): its template, its segment, and the fields, events and
 * segments of its audience filter, each `active` while the campaign is SCHEDULED or SENDING (the
 * owners refuse to delete what an active campaign needs). `[]` when it is deleted.
 */
export function referencesOfCampaign(c: Campaign | null): ResourceReference[] {
  if (!c) return [];
  const active = isActive(c.status) ? { active: true as const } : {};
  const refs: ResourceReference[] = [];
  if (c.templateId) refs.push({ kind: 'template', key: c.templateId, ...active });
  if (c.audienceType === 'SEGMENT' && c.segmentId) refs.push({ kind: 'segment', key: c.segmentId, ...active });
  if (c.audienceType === 'FILTERED' && c.audienceFilter) {
    const r = referencesOf(parseFilter(c.audienceFilter, 'audienceFilter'));
    refs.push(...r.fields.map((key) => ({ kind: 'field' as const, key, ...active })));
    refs.push(...r.events.map((key) => ({ kind: 'event' as const, key, ...active })));
    refs.push(...r.segments.map((key) => ({ kind: 'segment' as const, key, ...active })));
  }
  return refs;
}

/** Publishes the campaign's references at its current version (call after the change is saved). */
export function publishCampaignReferences(
  outbox: Outbox,
  m: EntityManager,
  c: Campaign,
  deleted = false,
  correlationId?: string,
): Promise<unknown> {
  return publishReferences(
    outbox,
    m,
    CAMPAIGNS,
    {
      projectId: c.projectId,
      kind: 'campaign',
      id: c.id,
      name: c.name,
      revision: c.version + (deleted ? 1 : 0),
      deleted,
    },
    referencesOfCampaign(c),
    correlationId ? { correlationId } : {},
  );
}
