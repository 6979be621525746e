import { parseFilter, type FieldTypes, type Filter, type FilterNode, type SegmentResolver } from '@herald/filters';
import type { EntityManager } from 'typeorm';
import type { Segment } from './segment.entity.js';
import type { SegmentsStore } from './segments.store.js';

/**
 * Whether `segment_memberships` holds the members of `s`, complete (a static segment, or a dynamic one
 * whose members were computed): `segment.<id>` then reads them, and counts and pages may.
 */
export const isStored = (s: Pick<Segment, 'type' | 'materialized'>): boolean => s.type === 'STATIC' || s.materialized;

/**
 * What evaluating a project's filters needs: its segments (to resolve `segment.<id>`), the field
 * types of its custom fields, and the filters parsed once.
 */
export class ProjectContext {
  private readonly parsed = new Map<string, Filter>();

  constructor(
    readonly projectId: string,
    readonly segments: Map<string, Segment>,
    readonly fieldTypes: FieldTypes,
  ) {}

  /**
   * The project's segments and field types, in one statement (`SegmentsStore.ofProject`): a
   * read-model consumer loads a context per changed project in each round.
   */
  static async load(
    m: EntityManager,
    projectId: string,
    store: Pick<SegmentsStore, 'ofProject'>,
  ): Promise<ProjectContext> {
    const { segments, fieldTypes } = await store.ofProject(m, projectId);
    return new ProjectContext(projectId, new Map(segments.map((s) => [s.id, s])), fieldTypes);
  }

  /** The segment's filter, parsed (it was validated when saved); undefined for a static segment. */
  filterOf(segment: Segment): Filter | undefined {
    if (!segment.filters) return undefined;
    let f = this.parsed.get(segment.id);
    if (!f) this.parsed.set(segment.id, (f = parseFilter(segment.filters, 'filters')));
    return f;
  }

  /** `segment.<id>`: a stored segment reads its memberships, a dynamic one not yet computed is inlined. */
  readonly resolver: SegmentResolver = (id) => {
    const s = this.segments.get(id);
    if (!s) return undefined;
    if (isStored(s)) return { kind: 'stored' };
    const filter = this.filterOf(s);
    return filter ? { kind: 'dynamic', filter } : { kind: 'stored' };
  };

  /**
   * `segment.<id>` when a filter is checked: every dynamic segment's filter is followed, stored or
   * not, so that a reference cycle is found through any of them.
   */
  readonly checkResolver: SegmentResolver = (id) => {
    const s = this.segments.get(id);
    if (!s) return undefined;
    const filter = this.filterOf(s);
    return filter ? { kind: 'dynamic', filter } : { kind: 'stored' };
  };

  /**
   * Whether the stored members of `segment` answer its count and pages at `now`. A static segment's
   * always. A dynamic one's once computed (`materialized`): when its filter does not change with time
   * alone, since every change of a contact moves them in the transaction of that change; when it
   * does, while their last whole evaluation (a compute or the sweep, `membersAsOf`) is at most two
   * sweep intervals old, since time alone moves them only at the sweep. Otherwise its filter is read.
   */
  answersFromStored(segment: Segment, now: Date, sweepIntervalMs: number): boolean {
    if (segment.type === 'STATIC') return true;
    const filter = this.filterOf(segment);
    if (!filter || !segment.materialized) return false;
    if (!this.isTimeDependent(filter)) return true;
    const asOf = segment.membersAsOf?.getTime();
    return asOf !== undefined && now.getTime() - asOf <= 2 * sweepIntervalMs;
  }

  /** Whether the filter (with the dynamic segments it references) depends on the time alone. */
  isTimeDependent(filter: FilterNode, seen = new Set<string>()): boolean {
    switch (filter.kind) {
      case 'group':
        return filter.conditions.some((c) => this.isTimeDependent(c, seen));
      case 'standard':
      case 'data':
        return filter.operator === 'within' || filter.operator === 'olderThan';
      case 'activity':
        return filter.operator === 'triggeredWithin' || filter.operator === 'notTriggeredWithin' || !!filter.within;
      case 'segment': {
        // inlined or stored, a dynamic segment with a window changes with time; so do the stored
        // members of one (its own sweep moves them), which this filter reads
        const s = this.segments.get(filter.segmentId);
        const referenced = s && this.filterOf(s);
        if (seen.has(filter.segmentId) || !referenced) return false;
        seen.add(filter.segmentId);
        return this.isTimeDependent(referenced, seen);
      }
    }
  }
}

/** Projects whose context `ProjectContexts` keeps (the least recently used go first beyond it). */
const MAX_CONTEXTS = 1000;

/**
 * The contexts of the projects a consumer re-evaluates, kept from one round to the next: a round
 * reads only their stamp (`SegmentsStore.stampOf`, in its transaction: the segments' ids, versions
 * and whether stored, and the field types) and loads the context again when it moved, so that the
 * project's segments are not read, built and their filters parsed again at every round. A stamp is
 * read after the round's locks, as the context was (what the round before committed).
 */
export class ProjectContexts {
  private readonly byProject = new Map<string, { stamp: string; ctx: ProjectContext }>();
  /** Times a context was loaded (not served from the cache): for tests. */
  loads = 0;

  async load(
    m: EntityManager,
    projectId: string,
    store: Pick<SegmentsStore, 'ofProject' | 'stampOf'>,
  ): Promise<ProjectContext> {
    const stamp = await store.stampOf(m, projectId);
    const cached = this.byProject.get(projectId);
    this.byProject.delete(projectId);
    if (cached?.stamp === stamp) {
      this.byProject.set(projectId, cached);
      return cached.ctx;
    }
    this.loads++;
    const ctx = await ProjectContext.load(m, projectId, store);
    this.byProject.set(projectId, { stamp, ctx });
    if (this.byProject.size > MAX_CONTEXTS) this.byProject.delete(this.byProject.keys().next().value!);
    return ctx;
  }
}
