import type { InternalClient } from '@herald/auth';
import { HERALD_RUNTIME, LATEST, type HeraldRuntime } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { CAMPAIGNS_SETTINGS, type CampaignsSettings } from '../campaigns.settings.js';
import type { AudienceType } from '../campaigns/campaign.entity.js';
import { ownerClient } from './owner-client.js';

export interface Audience {
  audienceType: AudienceType;
  segmentId?: string;
  filter?: unknown;
}

/** A contact of the audience, as segments' read model has it (the snapshot sending renders with). */
export interface AudienceContact {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/**
 * The segments service as campaigns needs it (internal HTTP `/internal/segments/audience`): checks an
 * audience (a 422 names `segmentId` or `audienceFilter.…`) and reads it, page by page, in contact id order.
 */
@Injectable()
export class SegmentsClient {
  private readonly client: InternalClient;

  constructor(@Inject(CAMPAIGNS_SETTINGS) s: CampaignsSettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    this.client = ownerClient(runtime, 'segments', s.SEGMENTS_URL, 'SEGMENTS_URL', 30_000);
  }

  check(projectId: string, audience: Audience, requestId?: string): Promise<{ estimatedRecipients: number }> {
    return this.client.post(projectId, '/internal/segments/audience/check', audience, requestId);
  }

  /**
   * One page of the audience. The first is read once segments' copy has applied every contact (and
   * subscription) change committed until now (read-your-writes, `latest`): the audience of a send is
   * every contact written before it, that of a scheduled send every one written before its time.
   */
  page(
    projectId: string,
    audience: Audience,
    after: string | null,
    limit: number,
  ): Promise<{ contacts: AudienceContact[]; next: string | null }> {
    return this.client.post(
      projectId,
      '/internal/segments/audience',
      { ...audience, ...(after ? { after } : {}), limit },
      undefined,
      { observe: after ? {} : LATEST },
    );
  }
}
