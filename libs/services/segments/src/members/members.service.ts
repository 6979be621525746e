import { isValidEmail, normaliseEmail } from '@herald/contact-data';
import { invalidInput, type FieldProblem } from '@herald/core';
import { compileFilter } from '@herald/filters';
import { tableName } from '@herald/persistence';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { filterSqlSchema, ProjectContext } from '../membership/project-context.js';
import { SegmentContact } from '../read-model/read-model.entities.js';
import { ReadModelWriter } from '../read-model/read-model.writer.js';
import { SEGMENTS_SETTINGS, type SegmentsSettings } from '../segments.settings.js';
import { Segment, SegmentMembership } from '../segments/segment.entity.js';
import { SegmentErrors } from '../segments/segment.errors.js';
import { memberView, type MemberView, type Page } from '../segments/segment-view.js';
import { ContactsClient } from './contacts-client.js';

export interface AddMembersResult {
  added: number;
  alreadyMembers: number;
  created: number;
  notFound: number;
}

/** Normalised, de-duplicated addresses; every invalid one is a 422 on `emails[i]`. */
function addresses(emails: string[]): string[] {
  const problems: FieldProblem[] = [];
  const out = new Set<string>();
  emails.forEach((raw, i) => {
    const e = normaliseEmail(raw);
    if (!isValidEmail(e))
      problems.push({ field: `emails[${i}]`, code: 'VALIDATION_ERROR', message: 'must be a valid email address' });
    else out.add(e);
  });
  if (problems.length > 0) throw invalidInput(problems.slice(0, 50));
  return [...out];
}

/**
 * The members of a segment: the page-based listing (live for a dynamic segment, stored for a
 * static one, in contact id order, which is creation order), and a static segment's members.
 */
@Injectable()
export class MembersService {
  private readonly contacts: string;
  private readonly memberships: string;

  constructor(
    @InjectDataSource(SEGMENTS) private readonly db: DataSource,
    private readonly readModel: ReadModelWriter,
    private readonly contactsClient: ContactsClient,
    @Inject(SEGMENTS_SETTINGS) private readonly settings: SegmentsSettings,
  ) {
    this.contacts = tableName(db, SegmentContact);
    this.memberships = tableName(db, SegmentMembership);
  }

  /**
   * One page of members. A segment whose stored members answer (`ProjectContext.answersFromStored`:
   * a static segment, a computed dynamic one, with a window only while its last sweep is recent) is
   * read from `segment_memberships` by its primary key (project, segment, contact id order), and its
   * total is the maintained `member_count`, not a count. Other dynamic segments (not computed yet, or
   * a window whose sweep lags) list live: the filter, and a count for the `total` the spec's page
   * shape requires.
   */
  async page(projectId: string, id: string, page: number, pageSize: number): Promise<Page<MemberView>> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const ctx = await ProjectContext.load(m, projectId, this.readModel);
      const segment = ctx.segments.get(id);
      if (!segment) throw SegmentErrors.notFound(id);
      const filter = ctx.filterOf(segment);
      const offset = (page - 1) * pageSize;
      const now = new Date();
      let n: number;
      let rows: Record<string, unknown>[];
      if (!filter || ctx.answersFromStored(segment, now, this.settings.SEGMENTS_SWEEP_INTERVAL_MS)) {
        n = segment.memberCount;
        rows = await m.query<Record<string, unknown>[]>(
          `SELECT c.* FROM (SELECT ms.contact_id FROM ${this.memberships} ms
                             WHERE ms.project_id = $1 AND ms.segment_id = $2
                             ORDER BY ms.contact_id LIMIT ${pageSize} OFFSET ${offset}) p
             JOIN ${this.contacts} c ON c.project_id = $1 AND c.contact_id = p.contact_id
            ORDER BY c.contact_id`,
          [projectId, id],
        );
      } else {
        const f = compileFilter(filter, {
          projectId,
          now,
          fieldTypes: ctx.fieldTypes,
          segments: ctx.resolver,
          schema: filterSqlSchema(m),
        });
        [{ n }] = await m.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM ${this.contacts} c WHERE ${f.sql}`,
          f.params,
        );
        rows = await m.query<Record<string, unknown>[]>(
          `SELECT c.* FROM ${this.contacts} c WHERE ${f.sql} ORDER BY c.contact_id
            LIMIT ${pageSize} OFFSET ${offset}`,
          f.params,
        );
      }
      return { data: rows.map(memberView), total: n, page, pageSize, totalPages: Math.ceil(n / pageSize) };
    });
  }

  /**
   * Adds contacts by address to a static segment. Addresses without a contact are created through
   * the contacts service when `createMissing` (with `subscribed`, default true), counted as not
   * found otherwise.
   */
  async add(
    projectId: string,
    id: string,
    body: { emails: string[]; createMissing?: boolean; subscribed?: boolean },
    requestId?: string,
  ): Promise<AddMembersResult> {
    const emails = addresses(body.emails);
    await this.staticSegment(projectId, id);
    const known = await this.idsByEmail(projectId, emails);
    let created = 0;
    let notFound = 0;
    for (const email of emails) {
      if (known.has(email)) continue;
      if (!body.createMissing) {
        notFound++;
        continue;
      }
      const r = await this.contactsClient.upsert(projectId, email, body.subscribed ?? true, requestId);
      known.set(email, r.contact.id);
      if (r.created) created++;
    }
    const ids = [...new Set(known.values())].sort();
    return this.db.transaction(async (m) => {
      const segment = await m.findOne(Segment, { where: { projectId, id }, lock: { mode: 'pessimistic_write' } });
      if (!segment) throw SegmentErrors.notFound(id);
      const rows: unknown[] = await m.query(
        `INSERT INTO ${this.memberships} (project_id, segment_id, contact_id)
         SELECT $1::varchar, $2::varchar, unnest($3::varchar[]) ON CONFLICT DO NOTHING RETURNING 1`,
        [projectId, id, ids],
      );
      await m.query(`UPDATE ${tableName(m, Segment)} SET member_count = member_count + $2 WHERE id = $1`, [
        id,
        rows.length,
      ]);
      return { added: rows.length, alreadyMembers: ids.length - rows.length, created, notFound };
    });
  }

  /** Removes contacts by address from a static segment; answers how many were members. */
  async remove(projectId: string, id: string, emails: string[]): Promise<{ removed: number }> {
    const list = addresses(emails);
    await this.staticSegment(projectId, id);
    const ids = [...(await this.idsByEmail(projectId, list)).values()].sort();
    return this.db.transaction(async (m) => {
      const segment = await m.findOne(Segment, { where: { projectId, id }, lock: { mode: 'pessimistic_write' } });
      if (!segment) throw SegmentErrors.notFound(id);
      const rows: unknown[] = await m.query(
        `WITH d AS (DELETE FROM ${this.memberships} WHERE project_id = $1 AND segment_id = $2 AND contact_id = ANY($3::varchar[]) RETURNING 1) SELECT 1 FROM d`,
        [projectId, id, ids],
      );
      await m.query(`UPDATE ${tableName(m, Segment)} SET member_count = GREATEST(member_count - $2, 0) WHERE id = $1`, [
        id,
        rows.length,
      ]);
      return { removed: rows.length };
    });
  }

  private async staticSegment(projectId: string, id: string): Promise<Segment> {
    const s = await this.db.getRepository(Segment).findOneBy({ projectId, id });
    if (!s) throw SegmentErrors.notFound(id);
    if (s.type !== 'STATIC') throw SegmentErrors.notStatic();
    return s;
  }

  private async idsByEmail(projectId: string, emails: string[]): Promise<Map<string, string>> {
    const rows = await this.db.query<{ email: string; contact_id: string }[]>(
      `SELECT email, contact_id FROM ${this.contacts} WHERE project_id = $1 AND email = ANY($2::varchar[])`,
      [projectId, emails],
    );
    return new Map(rows.map((r) => [r.email, r.contact_id]));
  }
}
