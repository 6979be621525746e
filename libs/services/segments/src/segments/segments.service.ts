import type { ResourceReference } from '@herald/contracts';
import { newId } from '@herald/core';
import { checkFilter, parseFilter, referencesOf, toWire, type Filter } from '@herald/filters';
import { InjectOutbox, publishReferences, type Outbox } from '@herald/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { SegmentCompute } from '../membership/segment-compute.js';
import { ProjectContext } from '../membership/project-context.js';
import { Segment, SegmentMembership } from '../membership/segment.entity.js';
import { SegmentsStore } from '../membership/segments.store.js';
import { SEGMENTS_SETTINGS, type SegmentsSettings } from '../segments.settings.js';
import { EvaluationStore } from '../membership/evaluation.store.js';
import type { CountFilterDto, CreateSegmentDto, UpdateSegmentDto } from './segment.dto.js';
import { SegmentErrors } from './segment.errors.js';
import { memberView, segmentView, type MemberView, type SegmentView } from './segment-view.js';
import { SegmentDeletionChecks } from './segment-deletion-checks.js';

/** The filter of a create or update body: `filters` or `condition` (one of them), parsed under its own name. */
function filterOf(body: { filters?: unknown; condition?: unknown }): Filter | undefined {
  if (body.filters !== undefined && body.condition !== undefined)
    throw SegmentErrors.field('condition', 'give the filter as filters or as condition, not both');
  if (body.filters !== undefined) return parseFilter(body.filters, 'filters');
  if (body.condition !== undefined) return parseFilter(body.condition, 'condition');
  return undefined;
}

const referencesOfFilter = (filter: Filter | undefined): ResourceReference[] => {
  if (!filter) return [];
  const refs = referencesOf(filter);
  return [
    ...refs.fields.map((key) => ({ kind: 'field' as const, key })),
    ...refs.events.map((key) => ({ kind: 'event' as const, key })),
    ...refs.segments.map((key) => ({ kind: 'segment' as const, key })),
  ];
};

/** Segments: create, read, change, delete, compute and refresh (docs/segments.md). */
@Injectable()
export class SegmentsService {
  constructor(
    @InjectDataSource(SEGMENTS) private readonly db: DataSource,
    @InjectOutbox(SEGMENTS) private readonly outbox: Outbox,
    private readonly store: SegmentsStore,
    private readonly membership: SegmentCompute,
    private readonly deletionChecks: SegmentDeletionChecks,
    @Inject(SEGMENTS_SETTINGS) private readonly settings: SegmentsSettings,
    private readonly evaluation: EvaluationStore,
  ) {}

  async create(projectId: string, body: CreateSegmentDto, requestId?: string): Promise<SegmentView> {
    const type = body.type ?? 'DYNAMIC';
    const filter = filterOf(body);
    if (type === 'DYNAMIC' && !filter)
      throw SegmentErrors.field('filters', 'a DYNAMIC segment needs filters (or condition)', 'FILTER_REQUIRED');
    if (type === 'STATIC' && filter)
      throw SegmentErrors.field(
        body.filters !== undefined ? 'filters' : 'condition',
        'a STATIC segment takes no filter: add its members with POST /segments/:id/members',
        'FILTER_NOT_ALLOWED',
      );
    if (type === 'STATIC' && body.trackMembership)
      throw SegmentErrors.field('trackMembership', 'only a DYNAMIC segment tracks membership');
    const id = newId('seg');
    const segment = await this.db.transaction(async (m) => {
      if (filter) await this.check(m, projectId, filter, id);
      const s = m.create(Segment, {
        id,
        projectId,
        name: body.name,
        description: body.description ?? null,
        type,
        filters: filter ? toWire(filter) : null,
        trackMembership: type === 'DYNAMIC' && body.trackMembership === true,
        materialized: type === 'STATIC',
        memberCount: 0,
      });
      const saved = await m.save(s);
      await this.publishReferences(m, saved, filter, requestId);
      return saved;
    });
    return segmentView(await this.count(segment, 'baseline'));
  }

  async list(projectId: string): Promise<SegmentView[]> {
    const rows = await this.db
      .getRepository(Segment)
      .find({ where: { projectId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(segmentView);
  }

  async get(projectId: string, id: string): Promise<SegmentView> {
    return segmentView(await this.find(this.db.manager, projectId, id));
  }

  async update(projectId: string, id: string, body: UpdateSegmentDto, requestId?: string): Promise<SegmentView> {
    const filter = filterOf(body);
    const { segment, recount } = await this.db.transaction(async (m) => {
      const s = await this.find(m, projectId, id, true);
      const before = JSON.stringify(s.filters);
      if (filter && s.type === 'STATIC')
        throw SegmentErrors.field(
          body.filters !== undefined ? 'filters' : 'condition',
          'a STATIC segment takes no filter: its members are managed with /segments/:id/members',
          'SEGMENT_TYPE_MISMATCH',
        );
      if (body.trackMembership === true && s.type === 'STATIC')
        throw SegmentErrors.field('trackMembership', 'only a DYNAMIC segment tracks membership');
      if (body.name !== undefined) s.name = body.name;
      if (body.description !== undefined) s.description = body.description;
      if (body.trackMembership !== undefined) s.trackMembership = body.trackMembership;
      if (filter) {
        await this.check(m, projectId, filter, id);
        s.filters = toWire(filter);
      }
      // the stored members of a dynamic segment stay whether it tracks membership or not (tracking
      // only publishes their entries and exits); a new filter is computed, and until that ends its
      // members are read from the filter
      const filterChanged = s.type === 'DYNAMIC' && JSON.stringify(s.filters) !== before;
      if (filterChanged) s.materialized = false;
      const saved = await m.save(s);
      await this.publishReferences(m, saved, this.parsed(saved), requestId);
      return { segment: saved, recount: filterChanged ? ('compute' as const) : ('none' as const) };
    });
    return segmentView(recount === 'none' ? segment : await this.count(segment, recount, requestId));
  }

  async remove(projectId: string, id: string, requestId?: string): Promise<void> {
    await this.db.transaction(async (m) => {
      const s = await this.find(m, projectId, id, true);
      await this.deletionChecks.assertDeletable(m, s);
      await m.delete(SegmentMembership, { projectId, segmentId: id });
      await m.delete(Segment, { projectId, id });
      await publishReferences(
        this.outbox,
        m,
        SEGMENTS,
        { projectId, kind: 'segment', id, name: s.name, revision: s.version + 1, deleted: true },
        [],
        requestId ? { correlationId: requestId } : {},
      );
    });
  }

  /**
   * `POST /segments/:id/compute`: a dynamic segment writes its entries and exits (published when it
   * tracks membership); a static one is counted.
   */
  async compute(projectId: string, id: string, requestId?: string) {
    const s = await this.find(this.db.manager, projectId, id);
    if (s.type === 'DYNAMIC') {
      const r = await this.membership.compute(projectId, id, {
        fire: true,
        reason: 'compute',
        ...(requestId ? { trace: { correlationId: requestId } } : {}),
      });
      if (!r) throw SegmentErrors.notFound(id);
      return r;
    }
    const counted = await this.count(s, 'live');
    return { added: 0, removed: 0, total: counted.memberCount };
  }

  /** `POST /segments/:id/refresh`: the cached count only (a dynamic segment's live count), no writes of members, no events. */
  async refresh(projectId: string, id: string): Promise<SegmentView> {
    const s = await this.find(this.db.manager, projectId, id);
    return segmentView(await this.count(s, 'live'));
  }

  /**
   * How many of the project's contacts a filter matches now, without saving it (the dashboard's
   * live count as a filter is built): checked as a segment's filter is (422 on the part at fault),
   * then counted by the same compiled SQL as a segment's live count.
   */
  async countFilter(projectId: string, body: CountFilterDto): Promise<{ total: number; preview?: MemberView[] }> {
    const filter = filterOf(body);
    if (!filter)
      throw SegmentErrors.field('filters', 'give the filter to count as filters (or condition)', 'FILTER_REQUIRED');
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const ctx = await ProjectContext.load(m, projectId, this.store);
      checkFilter(filter, { fieldTypes: ctx.fieldTypes, segments: ctx.checkResolver, selfId: newId('seg') });
      const now = new Date();
      if (!body.preview) return { total: await this.evaluation.countMatching(m, ctx, filter, now) };
      const { n, rows } = await this.evaluation.pageMatching(m, ctx, filter, now, body.preview, 0);
      return { total: n, preview: rows.map(memberView) };
    });
  }

  /**
   * Which of `ids` are segments of the project: another project's are not, exactly as unknown ones
   * (what a reference saved by another service must name, `POST /internal/segments/known`).
   */
  async known(projectId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .getRepository(Segment)
      .find({ select: { id: true }, where: { projectId, id: In([...new Set(ids)]) } });
    return rows.map((r) => r.id);
  }

  async find(m: EntityManager, projectId: string, id: string, lock = false): Promise<Segment> {
    const s = await m.findOne(Segment, {
      where: { projectId, id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!s) throw SegmentErrors.notFound(id);
    return s;
  }

  /**
   * Sets the cached count: `live` counts the members now; `baseline` fills a new dynamic segment's
   * stored membership silently (no events: these contacts did not enter, they were there);
   * `compute` recomputes it (its condition changed), with events if it tracks membership.
   */
  private async count(s: Segment, how: 'baseline' | 'compute' | 'live', requestId?: string): Promise<Segment> {
    if (s.type === 'STATIC') {
      s.memberCount = await this.membership.recount(this.db.manager, s.projectId, s.id);
      return s;
    }
    if (how !== 'live') {
      const r = await this.membership.compute(s.projectId, s.id, {
        fire: how === 'compute',
        reason: 'compute',
        ...(requestId ? { trace: { correlationId: requestId } } : {}),
      });
      s.memberCount = r?.total ?? s.memberCount;
      return s;
    }
    // stored members that answer (ProjectContext.answersFromStored) have a maintained count (each
    // change adds its delta in its transaction, under the segment's row lock; a compute or the sweep
    // counts the rows again); otherwise the filter is counted, and cached only for a segment whose
    // members are not stored yet: a stored one's count stays the count of its stored rows, which
    // the deltas keep (its sweep lags: the next one brings both up to date)
    const n = await this.db.transaction(async (m): Promise<{ cache: boolean; n: number }> => {
      const ctx = await ProjectContext.load(m, s.projectId, this.store);
      const current = ctx.segments.get(s.id);
      if (!current) throw SegmentErrors.notFound(s.id);
      const now = new Date();
      if (ctx.answersFromStored(current, now, this.settings.SEGMENTS_SWEEP_INTERVAL_MS)) {
        return { cache: false, n: current.memberCount };
      }
      return { cache: !current.materialized, n: await this.membership.countLive(m, ctx, current, now) };
    });
    // the cached count is not a change of the segment (its version and updatedAt stay)
    if (n.cache) await this.store.cacheCount(this.db.manager, s.id, n.n);
    s.memberCount = n.n;
    return s;
  }

  /** The checks that need the project: registered field types, segment references, cycles. */
  private async check(m: EntityManager, projectId: string, filter: Filter, selfId: string): Promise<void> {
    const ctx = await ProjectContext.load(m, projectId, this.store);
    checkFilter(filter, { fieldTypes: ctx.fieldTypes, segments: ctx.checkResolver, selfId });
  }

  private parsed(s: Segment): Filter | undefined {
    return s.filters ? parseFilter(s.filters, 'filters') : undefined;
  }

  private publishReferences(m: EntityManager, s: Segment, filter: Filter | undefined, requestId?: string) {
    return publishReferences(
      this.outbox,
      m,
      SEGMENTS,
      { projectId: s.projectId, kind: 'segment', id: s.id, name: s.name, revision: s.version },
      referencesOfFilter(filter),
      requestId ? { correlationId: requestId } : {},
    );
  }
}
