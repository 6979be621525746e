import { bindFilter } from './bind.js';
import type { FieldTypes, Filter, SegmentResolver } from './model.js';
import { Problems } from './problems.js';

export interface CheckContext {
  /** Registered types of custom fields (`data.<path>` → type). */
  fieldTypes?: FieldTypes;
  /** The project's segments: an id it does not know is refused. */
  segments: SegmentResolver;
  /** The segment whose filter this is (a reference back to it is a cycle). */
  selfId?: string;
}

/**
 * The checks that need the project, run when a filter is written (a segment created or changed, a
 * campaign audience or a workflow condition saved), after `parseFilter`: a value that does not fit
 * the field's registered type, a reference to a segment the project does not have (another
 * project's included), and reference cycles, inlined segments followed, are refused with one 422
 * listing every problem. Evaluation never throws for these (see bind.ts): the condition concerned
 * matches nobody.
 */
export function checkFilter(filter: Filter, ctx: CheckContext): void {
  const problems = new Problems();
  bindFilter(
    filter,
    { now: new Date(), fieldTypes: ctx.fieldTypes, segments: ctx.segments },
    ctx.selfId === undefined ? { problems } : { problems, selfId: ctx.selfId },
  );
  problems.throwIfAny('The filter is invalid');
}
