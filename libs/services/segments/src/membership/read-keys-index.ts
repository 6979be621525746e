import { readKeysOf } from '@herald/filters';
import type { ProjectContext } from './project-context.js';

/** Projects whose index is kept (the least recently indexed go first beyond it). */
const MAX_PROJECTS = 1000;

/**
 * The keys each dynamic segment of a project reads (`readKeysOf`, through `segment.<id>`
 * references), cached per project with the definitions they came from. The definitions themselves
 * are read in each round's statement (`ProjectContext.load`, what the round's transaction sees), so
 * the index is invalidated exactly when a segment is created, updated or deleted: its stamp is the
 * list of the project's segment ids with their `version`, which only a change saved through the
 * entity moves (counts and `materialized` are raw statements and leave it). Any process, any
 * replica: nothing to broadcast, and a segment created a moment ago is in the next round's index.
 */
export class ReadKeysIndex {
  private readonly byProject = new Map<string, { stamp: string; keys: Map<string, ReadonlySet<string>> }>();
  /** Times an index was derived (not served from the cache): for tests. */
  builds = 0;

  of(ctx: ProjectContext): Map<string, ReadonlySet<string>> {
    const stamp = [...ctx.segments.values()].map((s) => `${s.id}:${s.version}`).join(',');
    const cached = this.byProject.get(ctx.projectId);
    if (cached?.stamp === stamp) return cached.keys;
    this.builds++;
    const referenced = (id: string) => {
      const s = ctx.segments.get(id);
      return s && s.type === 'DYNAMIC' ? ctx.filterOf(s) : undefined;
    };
    const keys = new Map<string, ReadonlySet<string>>();
    for (const segment of ctx.segments.values()) {
      const filter = segment.type === 'DYNAMIC' ? ctx.filterOf(segment) : undefined;
      if (filter) keys.set(segment.id, readKeysOf(filter, referenced));
    }
    this.byProject.delete(ctx.projectId);
    this.byProject.set(ctx.projectId, { stamp, keys });
    if (this.byProject.size > MAX_PROJECTS) this.byProject.delete(this.byProject.keys().next().value!);
    return keys;
  }
}
