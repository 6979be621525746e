import { mayMatchEmpty, readKeysOf } from '@herald/filters';
import type { ProjectContext } from './project-context.js';

/** Projects whose index is kept (the least recently indexed go first beyond it). */
const MAX_PROJECTS = 1000;

/** What a dynamic segment's filter reads, and whether a contact holding none of it may match it. */
export interface SegmentReads {
  /** The keys it reads (`readKeysOf`, through `segment.<id>` references). */
  keys: ReadonlySet<string>;
  /** Whether a contact holding nothing it reads may match it (`mayMatchEmpty`): a creation's concern. */
  matchesEmpty: boolean;
}

/**
 * What each dynamic segment of a project reads (`SegmentReads`), cached per project with the
 * definitions they came from. The definitions themselves are read in each round's statement
 * (`ProjectContext.load`, what the round's transaction sees), so the index is invalidated exactly
 * when a segment is created, updated or deleted: its stamp is the list of the project's segment
 * ids with their `version`, which only a change saved through the entity moves (counts and
 * `materialized` are raw statements and leave it). Any process, any replica: nothing to broadcast,
 * and a segment created a moment ago is in the next round's index.
 */
export class ReadKeysIndex {
  private readonly byProject = new Map<string, { stamp: string; reads: Map<string, SegmentReads> }>();
  /** Times an index was derived (not served from the cache): for tests. */
  builds = 0;

  of(ctx: ProjectContext): Map<string, SegmentReads> {
    const stamp = [...ctx.segments.values()].map((s) => `${s.id}:${s.version}`).join(',');
    const cached = this.byProject.get(ctx.projectId);
    if (cached?.stamp === stamp) return cached.reads;
    this.builds++;
    const referenced = (id: string) => {
      const s = ctx.segments.get(id);
      return s && s.type === 'DYNAMIC' ? ctx.filterOf(s) : undefined;
    };
    const reads = new Map<string, SegmentReads>();
    for (const segment of ctx.segments.values()) {
      const filter = segment.type === 'DYNAMIC' ? ctx.filterOf(segment) : undefined;
      // (field types play no part in mayMatchEmpty's answer, so the definitions' stamp suffices)
      if (filter)
        reads.set(segment.id, { keys: readKeysOf(filter, referenced), matchesEmpty: mayMatchEmpty(filter, ctx) });
    }
    this.byProject.delete(ctx.projectId);
    this.byProject.set(ctx.projectId, { stamp, reads });
    if (this.byProject.size > MAX_PROJECTS) this.byProject.delete(this.byProject.keys().next().value!);
    return reads;
  }
}
