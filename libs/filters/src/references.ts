import type { FilterNode } from './model.js';

export interface FilterReferences {
  /** Contact fields: `email`, `subscribed`, `createdAt`, `updatedAt`, `data.<path>`. */
  fields: string[];
  /** Tracked event names (`event.<name>`). */
  events: string[];
  /** Segment ids (`segment.<id>`), not followed into the referenced segments. */
  segments: string[];
}

/** What a filter refers to, each once, in order of appearance: for the usage endpoints. */
export function referencesOf(filter: FilterNode): FilterReferences {
  const fields = new Set<string>();
  const events = new Set<string>();
  const segments = new Set<string>();
  const walk = (node: FilterNode): void => {
    switch (node.kind) {
      case 'group':
        node.conditions.forEach(walk);
        return;
      case 'standard':
      case 'data':
        fields.add(node.field);
        return;
      case 'activity':
        if (node.source === 'event') events.add(node.name);
        return;
      case 'segment':
        segments.add(node.segmentId);
    }
  };
  walk(filter);
  return { fields: [...fields], events: [...events], segments: [...segments] };
}
