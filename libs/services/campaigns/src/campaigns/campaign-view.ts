import type { WireGroup } from '@herald/filters';
import type { AudienceType, Campaign, CampaignStatus } from './campaign.entity.js';

/** A campaign as the API shows it: `type` is the audience type (the spec's sample), `audienceType` too. */
export interface CampaignView {
  id: string;
  name: string;
  description: string | null;
  subject: string;
  body: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  type: AudienceType;
  audienceType: AudienceType;
  segmentId: string | null;
  audienceFilter: WireGroup | null;
  templateId: string | null;
  status: CampaignStatus;
  scheduledAt: string | null;
  startedAt: string | null;
  sentAt: string | null;
  cancelledAt: string | null;
  /** Why the campaign stopped before its whole audience was sent: `billing_limit` or `sending_suspended`, else null. */
  stoppedReason: string | null;
  createdAt: string;
  updatedAt: string;
}

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

export const campaignView = (c: Campaign): CampaignView => ({
  id: c.id,
  name: c.name,
  description: c.description,
  subject: c.subject,
  body: c.body,
  from: c.from,
  fromName: c.fromName,
  replyTo: c.replyTo,
  type: c.audienceType,
  audienceType: c.audienceType,
  segmentId: c.segmentId,
  audienceFilter: c.audienceFilter,
  templateId: c.templateId,
  status: c.status,
  scheduledAt: iso(c.scheduledAt),
  startedAt: iso(c.startedAt),
  sentAt: iso(c.sentAt),
  cancelledAt: iso(c.cancelledAt),
  stoppedReason: c.stoppedReason ?? null,
  createdAt: new Date(c.createdAt).toISOString(),
  updatedAt: new Date(c.updatedAt).toISOString(),
});
