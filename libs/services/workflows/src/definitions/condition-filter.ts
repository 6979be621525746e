import type { FieldProblem } from '@herald/core';
import {
  ACTIVITY_OPERATORS,
  createMatcher,
  FilterProblemCodes,
  parseFilter,
  referencesOf,
  type FieldTypes,
  type Filter,
  type FilterContact,
} from '@herald/filters';

/**
 * CONDITION steps use the filter language (docs/filters.md) over three things: the contact (its
 * fields, data, activity and segments, as everywhere), the triggering event's data and the
 * execution context. The extension is compatible: `event.<name>` with an activity operator
 * (`triggered`, `countGreaterThan`, …) keeps its meaning (the contact's tracked events); with a value
 * operator (`equals`, `gt`, `exists`, …), which the language refuses on `event.<name>` elsewhere, it
 * reads the triggering event's data at `<key>` (a dotted path). `context.<path>` reads the execution
 * context. Both are rewritten to reserved data keys (`data.$event.<key>`, `data.$context.<path>`) so
 * that one parser, one type system and one matcher serve them.
 */
export const EVENT_DATA_KEY = '$event';
export const CONTEXT_DATA_KEY = '$context';
const ACTIVITY: ReadonlySet<string> = new Set(ACTIVITY_OPERATORS);

const rewriteNode = (node: unknown): unknown => {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
  const o = node as Record<string, unknown>;
  if (Array.isArray(o.conditions)) return { ...o, conditions: o.conditions.map(rewriteNode) };
  if (typeof o.field !== 'string') return node;
  if (o.field.startsWith('event.') && typeof o.operator === 'string' && !ACTIVITY.has(o.operator))
    return { ...o, field: `data.${EVENT_DATA_KEY}.${o.field.slice('event.'.length)}` };
  if (o.field.startsWith('context.')) return { ...o, field: `data.${CONTEXT_DATA_KEY}.${o.field.slice(8)}` };
  return node;
};

/** Parses a CONDITION step's filter (`config`, a group) into the filter language; 422s name `path…`. */
export function parseCondition(raw: unknown, path = 'config'): Filter {
  return parseFilter(rewriteNode(raw), path);
}

/** The contact fields and tracked event names a condition references (usage), the event/context ones left out. */
export function conditionReferences(filter: Filter): { fields: string[]; events: string[]; segments: string[] } {
  const refs = referencesOf(filter);
  return {
    fields: refs.fields.filter(
      (f) => !f.startsWith(`data.${EVENT_DATA_KEY}.`) && !f.startsWith(`data.${CONTEXT_DATA_KEY}.`),
    ),
    events: refs.events,
    segments: refs.segments,
  };
}

/**
 * The `segment.<id>` conditions naming no segment of the project (`known`: those that are), each on
 * its `…field` with the filter language's code and message (docs/filters.md): another project's
 * segment is answered exactly as an unknown one.
 */
export function unknownSegments(filter: Filter, known: ReadonlySet<string>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const walk = (node: Filter['conditions'][number] | Filter): void => {
    if (node.kind === 'group') node.conditions.forEach(walk);
    else if (node.kind === 'segment' && !known.has(node.segmentId))
      problems.push({
        field: `${node.path}.field`,
        code: FilterProblemCodes.unknownSegment,
        message: `segment ${node.segmentId} does not exist in this project`,
      });
  };
  walk(filter);
  return problems;
}

export interface ConditionInput {
  contact: FilterContact;
  event: Record<string, unknown>;
  context: Record<string, unknown>;
}

/** Evaluates a parsed condition at `now`: the contact's data carries the event and the context under the reserved keys. */
export function evaluateCondition(
  filter: Filter,
  input: ConditionInput,
  now: Date,
  fieldTypes?: FieldTypes,
): { result: boolean; values: Record<string, unknown> } {
  const contact: FilterContact = {
    ...input.contact,
    data: { ...input.contact.data, [EVENT_DATA_KEY]: input.event, [CONTEXT_DATA_KEY]: input.context },
  };
  const match = createMatcher(filter, {
    now,
    ...(fieldTypes ? { fieldTypes } : {}),
    segments: () => ({ kind: 'stored' }),
  });
  return { result: match(contact), values: valuesOf(filter, contact) };
}

/** The values a condition looked at, keyed by the field as the user wrote it (the dry run's "why"). */
function valuesOf(filter: Filter, contact: FilterContact): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (node: Filter['conditions'][number] | Filter): void => {
    switch (node.kind) {
      case 'group':
        node.conditions.forEach(walk);
        return;
      case 'standard':
        out[node.field] =
          node.field === 'email'
            ? contact.email
            : node.field === 'subscribed'
              ? contact.subscribed
              : contact[node.field];
        return;
      case 'data': {
        const keys = node.keys;
        let v: unknown = contact.data;
        for (const k of keys)
          v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
        const shown =
          keys[0] === EVENT_DATA_KEY
            ? `event.${keys.slice(1).join('.')}`
            : keys[0] === CONTEXT_DATA_KEY
              ? `context.${keys.slice(1).join('.')}`
              : node.field;
        out[shown] = v ?? null;
        return;
      }
      case 'activity': {
        const list =
          node.source === 'event'
            ? contact.events.filter((e) => e.name === node.name)
            : contact.emails.filter((e) => e.kind === node.name);
        out[`${node.source === 'event' ? 'event' : 'email'}.${node.name}`] = { count: list.length };
        return;
      }
      case 'segment':
        out[`segment.${node.segmentId}`] = contact.segmentIds.has(node.segmentId);
    }
  };
  walk(filter);
  return out;
}
