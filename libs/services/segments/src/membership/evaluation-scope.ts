import type { Filter } from '@herald/filters';
import type { ProjectContext } from './project-context.js';

/* What the reconciliations of EvaluationStore look at and answer. */

/**
 * One batch of a compute's difference (`declareDifference`): its rows `from` < n <= `to`, whose
 * contact ids run from `first` to `last` in id order.
 */
export interface DifferenceBatch {
  from: number;
  to: number;
  first: string;
  last: string;
}

/**
 * Which contacts one reconciliation looks at: one contact, a list of contact ids (`span`: the
 * ids are a contiguous stretch of the id order; `bySegment`: each segment looks only at its own
 * contacts among them, those whose change touched what it reads), or one batch of a compute's
 * difference, which stays in PostgreSQL (the process holds none of its ids).
 */
export type Scope =
  | { contactId: string }
  | { contactIds: string[]; span?: true; bySegment?: ReadonlyMap<string, readonly string[]> }
  | { difference: DifferenceBatch };

/** An entry (`entered`) or an exit a reconciliation wrote; `email` is null for a contact no longer in the read model. */
export interface ReconcileRow {
  entered: boolean;
  segment_id: string;
  contact_id: string;
  email: string | null;
}

/** A campaign's audience, as a condition on the read model's contacts. */
export type AudienceWhere =
  | { kind: 'all'; projectId: string }
  | { kind: 'filter'; ctx: ProjectContext; filter: Filter; now: Date }
  | { kind: 'stored'; projectId: string; segmentId: string };

/** A scope's (segment, contact) pairs: each segment's own contacts (`bySegment`), all of the scope's when unnamed. */
export function segmentContactPairs(
  segments: { segment: { id: string } }[],
  scope: { contactIds: string[]; bySegment?: ReadonlyMap<string, readonly string[]> },
): { segmentIds: string[]; contactIds: string[] } {
  const segmentIds: string[] = [];
  const contactIds: string[] = [];
  for (const { segment } of segments)
    for (const contactId of scope.bySegment?.get(segment.id) ?? scope.contactIds) {
      segmentIds.push(segment.id);
      contactIds.push(contactId);
    }
  return { segmentIds, contactIds };
}
