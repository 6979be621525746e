import { referencesOf, type Filter } from '@herald/filters';
import type { Segment } from './segment.entity.js';
import { isStored, type ProjectContext } from './project-context.js';

/*
 * Which segments a change reaches, and in what order the real-time re-evaluation takes them
 * (MembershipEngine.onContactsChanged): pure functions of the project's segments.
 */

/**
 * The dynamic segments whose stored membership a filter reads (directly, or through the dynamic
 * segments not yet stored that it inlines): it must be re-evaluated after them.
 */
export function storedReads(
  ctx: ProjectContext,
  filter: Filter,
  out = new Set<string>(),
  seen = new Set<string>(),
): Set<string> {
  for (const id of referencesOf(filter).segments) {
    if (seen.has(id)) continue;
    seen.add(id);
    const s = ctx.segments.get(id);
    if (!s || s.type !== 'DYNAMIC') continue;
    if (isStored(s)) out.add(id);
    else {
      const inner = ctx.filterOf(s);
      if (inner) storedReads(ctx, inner, out, seen);
    }
  }
  return out;
}

/**
 * The segments that read stored memberships (`reads`: segment id to the ids it reads), each after
 * those of them it reads, otherwise in id order.
 */
export function dependentsInOrder(ctx: ProjectContext, reads: Map<string, Set<string>>): Segment[] {
  const ordered: Segment[] = [];
  const placed = new Set<string>();
  const place = (id: string) => {
    if (placed.has(id)) return;
    placed.add(id);
    for (const read of [...(reads.get(id) ?? [])].sort()) if (reads.has(read)) place(read);
    const segment = ctx.segments.get(id);
    if (segment) ordered.push(segment);
  };
  for (const id of [...reads.keys()].sort()) place(id);
  return ordered;
}
