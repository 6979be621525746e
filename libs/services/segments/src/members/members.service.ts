import { isValidEmail, normaliseEmail } from '@herald/contact-data';
import { invalidInput, type FieldProblem } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ContactsClient } from '../contacts/contacts-client.js';
import { ReadModelStore } from '../contacts/read-model.store.js';
import { SEGMENTS } from '../consumer.js';
import { EvaluationStore } from '../membership/evaluation.store.js';
import { ProjectContext } from '../membership/project-context.js';
import { Segment } from '../membership/segment.entity.js';
import { SegmentsStore } from '../membership/segments.store.js';
import { SEGMENTS_SETTINGS, type SegmentsSettings } from '../segments.settings.js';
import { SegmentErrors } from '../segments/segment.errors.js';
import { memberView, type MemberView, type Page } from '../segments/segment-view.js';

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
  constructor(
    @InjectDataSource(SEGMENTS) private readonly db: DataSource,
    private readonly segments: SegmentsStore,
    private readonly evaluation: EvaluationStore,
    private readonly readModel: ReadModelStore,
    private readonly contactsClient: ContactsClient,
    @Inject(SEGMENTS_SETTINGS) private readonly settings: SegmentsSettings,
  ) {}

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
      const ctx = await ProjectContext.load(m, projectId, this.segments);
      const segment = ctx.segments.get(id);
      if (!segment) throw SegmentErrors.notFound(id);
      const filter = ctx.filterOf(segment);
      const offset = (page - 1) * pageSize;
      const now = new Date();
      let n: number;
      let rows: Record<string, unknown>[];
      if (!filter || ctx.answersFromStored(segment, now, this.settings.SEGMENTS_SWEEP_INTERVAL_MS)) {
        n = segment.memberCount;
        rows = await this.segments.storedMembersPage(m, projectId, id, pageSize, offset);
      } else {
        ({ n, rows } = await this.evaluation.pageMatching(m, ctx, filter, now, pageSize, offset));
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
      const added = await this.segments.addStaticMembers(m, projectId, id, ids);
      return { added, alreadyMembers: ids.length - added, created, notFound };
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
      return { removed: await this.segments.removeStaticMembers(m, projectId, id, ids) };
    });
  }

  private async staticSegment(projectId: string, id: string): Promise<Segment> {
    const s = await this.db.getRepository(Segment).findOneBy({ projectId, id });
    if (!s) throw SegmentErrors.notFound(id);
    if (s.type !== 'STATIC') throw SegmentErrors.notStatic();
    return s;
  }

  private idsByEmail(projectId: string, emails: string[]): Promise<Map<string, string>> {
    return this.readModel.idsByEmail(this.db.manager, projectId, emails);
  }
}
