import type { AudiencePage, AudienceRequest } from '@herald/internal-contracts';
import { invalidInput } from '@herald/core';
import { checkFilter, compileFilter, parseFilter } from '@herald/filters';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { filterSqlSchema, ProjectContext } from '../membership/project-context.js';
import { SegmentContact } from '../read-model/read-model.entities.js';
import { ReadModelWriter } from '../read-model/read-model.writer.js';
import { SegmentMembership } from '../segments/segment.entity.js';
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
  private readonly contacts: string;
  private readonly memberships: string;

  constructor(
    @InjectDataSource(SEGMENTS) private readonly db: DataSource,
    private readonly readModel: ReadModelWriter,
  ) {
    this.contacts = tableName(db, SegmentContact);
    this.memberships = tableName(db, SegmentMembership);
  }

  /** Validates the audience (422 on `segmentId` or `audienceFilter.…`) and counts its subscribed contacts now. */
  async check(projectId: string, q: AudienceQuery): Promise<{ estimatedRecipients: number }> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const { where, params } = await this.where(m, projectId, q);
      const [{ n }] = await m.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM ${this.contacts} c WHERE ${where} AND c.subscribed`,
        params,
      );
      return { estimatedRecipients: n };
    });
  }

  /** One page of the audience after contact id `after`. */
  async page(projectId: string, q: AudienceQuery & { after?: string; limit: number }): Promise<AudiencePage> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const { where, params } = await this.where(m, projectId, q);
      const all = [...params, q.after ?? ''];
      const rows = await m.query<Record<string, unknown>[]>(
        `SELECT c.* FROM ${this.contacts} c WHERE ${where} AND c.contact_id > $${all.length}
          ORDER BY c.contact_id LIMIT ${Math.max(1, Math.min(q.limit, 2000))}`,
        all,
      );
      const contacts = rows.map(memberView);
      return { contacts, next: contacts.length === q.limit ? contacts[contacts.length - 1].id : null };
    });
  }

  private async where(
    m: EntityManager,
    projectId: string,
    q: AudienceQuery,
  ): Promise<{ where: string; params: unknown[] }> {
    if (q.audienceType === 'ALL') return { where: 'c.project_id = $1', params: [projectId] };
    const ctx = await ProjectContext.load(m, projectId, this.readModel);
    const compile = (filter: ReturnType<typeof parseFilter>) =>
      compileFilter(filter, {
        projectId,
        now: new Date(),
        fieldTypes: ctx.fieldTypes,
        segments: ctx.resolver,
        schema: filterSqlSchema(m),
      });
    if (q.audienceType === 'FILTERED') {
      const filter = parseFilter(q.filter, 'audienceFilter');
      checkFilter(filter, { fieldTypes: ctx.fieldTypes, segments: ctx.resolver });
      const f = compile(filter);
      return { where: f.sql, params: f.params };
    }
    const segment = q.segmentId ? ctx.segments.get(q.segmentId) : undefined;
    if (!segment)
      throw invalidInput(
        [{ field: 'segmentId', code: SegmentErrorCode.NotFound, message: 'must be a segment of this project' }],
        'The segment does not exist',
      );
    const filter = ctx.filterOf(segment);
    if (filter) {
      const f = compile(filter);
      return { where: f.sql, params: f.params };
    }
    return {
      where: `c.project_id = $1 AND EXISTS (SELECT 1 FROM ${this.memberships} ms
                WHERE ms.project_id = $1 AND ms.segment_id = $2 AND ms.contact_id = c.contact_id)`,
      params: [projectId, segment.id],
    };
  }
}
