import type { AudiencePage, AudienceRequest } from '@herald/internal-contracts';
import { invalidInput } from '@herald/core';
import { checkFilter, parseFilter } from '@herald/filters';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import type { AudienceWhere } from '../membership/evaluation-scope.js';
import { EvaluationStore } from '../membership/evaluation.store.js';
import { ProjectContext } from '../membership/project-context.js';
import { SegmentsStore } from '../membership/segments.store.js';
import { SegmentErrorCode } from '../segments/segment.errors.js';
import { memberView } from '../segments/segment-view.js';

export type { AudiencePage, AudienceType } from '@herald/internal-contracts';
/** A campaign's audience as campaigns describes it (docs/campaigns.md, "Audience"). */
export type AudienceQuery = Pick<AudienceRequest, 'audienceType' | 'segmentId'> & { filter?: unknown };

/**
 * A campaign's audience at the moment of asking, from the read model: ALL (every contact), SEGMENT
 * (the segment's members: its filter, or its stored members), FILTERED (the contacts the filter
 * matches); only the subscribed ones receive it (the count of `check`), the pages carry every one
 * with its subscription so that the ledger can show who was skipped. Read as a stream of keyset
 * pages in contact id order, so that no one ever holds the whole audience.
 */
@Injectable()
export class AudienceService {
  constructor(
    @InjectDataSource(SEGMENTS) private readonly db: DataSource,
    private readonly segments: SegmentsStore,
    private readonly evaluation: EvaluationStore,
  ) {}

  /** Validates the audience (422 on `segmentId` or `audienceFilter.…`) and counts its subscribed contacts now. */
  async check(projectId: string, q: AudienceQuery): Promise<{ estimatedRecipients: number }> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const audience = await this.audience(m, projectId, q);
      return { estimatedRecipients: await this.evaluation.countSubscribed(m, audience) };
    });
  }

  /** One page of the audience after contact id `after`. */
  async page(projectId: string, q: AudienceQuery & { after?: string; limit: number }): Promise<AudiencePage> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const audience = await this.audience(m, projectId, q);
      const contacts = (await this.evaluation.audiencePage(m, audience, q.after, q.limit)).map(memberView);
      return { contacts, next: contacts.length === q.limit ? contacts[contacts.length - 1].id : null };
    });
  }

  /** Which contacts the audience is: all of the project's, a filter's, or a segment's (its filter, or its stored members). */
  private async audience(m: EntityManager, projectId: string, q: AudienceQuery): Promise<AudienceWhere> {
    if (q.audienceType === 'ALL') return { kind: 'all', projectId };
    const ctx = await ProjectContext.load(m, projectId, this.segments);
    if (q.audienceType === 'FILTERED') {
      const filter = parseFilter(q.filter, 'audienceFilter');
      checkFilter(filter, { fieldTypes: ctx.fieldTypes, segments: ctx.resolver });
      return { kind: 'filter', ctx, filter, now: new Date() };
    }
    const segment = q.segmentId ? ctx.segments.get(q.segmentId) : undefined;
    if (!segment)
      throw invalidInput(
        [{ field: 'segmentId', code: SegmentErrorCode.NotFound, message: 'must be a segment of this project' }],
        'The segment does not exist',
      );
    const filter = ctx.filterOf(segment);
    if (filter) return { kind: 'filter', ctx, filter, now: new Date() };
    return { kind: 'stored', projectId, segmentId: segment.id };
  }
}
