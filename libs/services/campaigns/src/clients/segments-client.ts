import {
  SegmentsCalls,
  type AudiencePage,
  type AudienceRequest,
  type ContactSnapshot,
} from '@herald/internal-contracts';
import { LATEST } from '@herald/core';
import { InternalCalls, type CallClient } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { CAMPAIGNS } from '../consumer.js';

/** A campaign's audience as segments reads it. */
export type Audience = Omit<AudienceRequest, 'filter'> & { filter?: unknown };

/** A contact of the audience, as segments' read model has it (the snapshot sending renders with). */
export type AudienceContact = ContactSnapshot;

/**
 * The segments service as campaigns needs it (SegmentsCalls): checks an audience (a 422 names
 * `segmentId` or `audienceFilter.…`) and reads it, page by page, in contact id order.
 */
@Injectable()
export class SegmentsClient {
  private readonly segments: CallClient<typeof SegmentsCalls>;

  constructor(calls: InternalCalls) {
    this.segments = calls.client(SegmentsCalls, CAMPAIGNS);
  }

  check(projectId: string, audience: Audience, requestId?: string): Promise<{ estimatedRecipients: number }> {
    return this.segments.checkAudience(projectId, audience as AudienceRequest, { requestId });
  }

  /**
   * One page of the audience. The first is read once segments' copy has applied every contact (and
   * subscription) change committed until now (read-your-writes, `latest`): the audience of a send is
   * every contact written before it, that of a scheduled send every one written before its time.
   */
  page(projectId: string, audience: Audience, after: string | null, limit: number): Promise<AudiencePage> {
    return this.segments.audiencePage(
      projectId,
      { ...(audience as AudienceRequest), ...(after ? { after } : {}), limit },
      { observe: after ? {} : LATEST },
    );
  }
}
