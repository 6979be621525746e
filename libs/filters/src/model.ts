/**
 * The filter model shared by segments, campaigns' FILTERED audiences and workflow CONDITION steps
 * (docs/filters.md is the reference users read).
 *
 * On the wire a filter is the spec's `{operator: "AND", conditions: [{field, operator, value, unit?}]}`,
 * extended compatibly: the group operator may also be `OR`, and a condition may itself be a group.
 * `parseFilter` turns untrusted input into the `Filter` below; every node carries `kind` (the
 * discriminant) and `path` (where it sits in the request, for error messages). `toWire` gives the
 * stored/echoed JSON form back.
 */
import type { FieldType } from '@herald/contact-data';

export const GROUP_OPERATORS = ['AND', 'OR'] as const;
export type GroupOperator = (typeof GROUP_OPERATORS)[number];

export const TIME_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

export const STANDARD_FIELDS = ['email', 'subscribed', 'createdAt', 'updatedAt'] as const;
export type StandardField = (typeof STANDARD_FIELDS)[number];

export const ENGAGEMENT_KINDS = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;
export type EngagementKind = (typeof ENGAGEMENT_KINDS)[number];

/** Operators on contact attributes (`email`, `subscribed`, `createdAt`, `updatedAt`, `data.<path>`). */
export const VALUE_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'in',
  'notIn',
  'exists',
  'notExists',
  'greaterThan',
  'lessThan',
  'greaterThanOrEqual',
  'lessThanOrEqual',
  'gt',
  'lt',
  'gte',
  'lte',
  'within',
  'olderThan',
] as const;
export type ValueOperator = (typeof VALUE_OPERATORS)[number];

/** Operators on `event.<name>` and `email.<kind>`: all of them are predicates on a count of occurrences. */
export const ACTIVITY_OPERATORS = [
  'triggered',
  'notTriggered',
  'triggeredWithin',
  'notTriggeredWithin',
  'countEquals',
  'countGreaterThan',
  'countLessThan',
  'countGreaterThanOrEqual',
  'countLessThanOrEqual',
] as const;
export type ActivityOperator = (typeof ACTIVITY_OPERATORS)[number];

export const SEGMENT_OPERATORS = ['isMember', 'isNotMember'] as const;
export type SegmentOperator = (typeof SEGMENT_OPERATORS)[number];

/** Bounds checked by parseFilter (docs/filters.md, "Limits"). */
export const FILTER_LIMITS = {
  /** Group nesting: the root group is level 1. */
  maxDepth: 5,
  /** Conditions and groups below the root, counted together. */
  maxNodes: 100,
  /** Values of one `in` / `notIn`. */
  maxListValues: 100,
  /** Characters of one string value. */
  maxStringLength: 1000,
  /** Characters of a `field`. */
  maxFieldLength: 300,
  /** Segments of a `data.<path>`. */
  maxPathSegments: 10,
  /** Largest `value` of within / olderThan / triggeredWithin and of a window's `amount`. */
  maxWindowAmount: 100_000,
  /** Largest count of a count comparison. */
  maxCount: 1_000_000,
  /** Conditions once referenced dynamic segments are inlined (checked when a filter is bound). */
  maxExpandedNodes: 1000,
  /** Problems listed in one 422 (the rest are summarised). */
  maxProblems: 50,
} as const;

export type Scalar = string | number | boolean;

export interface TimeWindow {
  amount: number;
  unit: TimeUnit;
}

interface NodeBase {
  /** Where the node sits in the request (`filters.conditions[1]`). */
  path: string;
}

export interface GroupNode extends NodeBase {
  kind: 'group';
  operator: GroupOperator;
  conditions: FilterNode[];
}

/** `email`, `subscribed`, `createdAt`, `updatedAt`. */
export interface StandardCondition extends NodeBase {
  kind: 'standard';
  field: StandardField;
  operator: ValueOperator;
  /** A scalar, an array of scalars (`in`/`notIn`), or undefined (`exists`/`notExists`). */
  value?: Scalar | Scalar[];
  /** within / olderThan only. */
  unit?: TimeUnit;
}

/** `data.<dotted path>`. */
export interface DataCondition extends NodeBase {
  kind: 'data';
  /** `data.profile.tier` */
  field: string;
  /** `['profile', 'tier']` */
  keys: string[];
  operator: ValueOperator;
  value?: Scalar | Scalar[];
  unit?: TimeUnit;
}

/** `event.<name>` (tracked events) or `email.<kind>` (engagement). */
export interface ActivityCondition extends NodeBase {
  kind: 'activity';
  field: string;
  source: 'event' | 'email';
  /** The event name, or the engagement kind. */
  name: string;
  operator: ActivityOperator;
  /** triggeredWithin / notTriggeredWithin: the window's amount; count operators: the count. */
  value?: number;
  /** triggeredWithin / notTriggeredWithin. */
  unit?: TimeUnit;
  /** Count operators: count only occurrences within this window (all of them when absent). */
  within?: TimeWindow;
}

/** `segment.<id>`. */
export interface SegmentCondition extends NodeBase {
  kind: 'segment';
  field: string;
  segmentId: string;
  operator: SegmentOperator;
}

export type Condition = StandardCondition | DataCondition | ActivityCondition | SegmentCondition;
export type FilterNode = GroupNode | Condition;
/** A parsed filter: always a group at the root. */
export type Filter = GroupNode;

/** The JSON form of a filter (what clients send and what is stored and echoed back). */
export interface WireGroup {
  operator: GroupOperator;
  conditions: WireNode[];
}
export interface WireCondition {
  field: string;
  operator: string;
  value?: Scalar | Scalar[];
  unit?: TimeUnit;
  within?: TimeWindow;
}
export type WireNode = WireGroup | WireCondition;

/** The filter as JSON, operators spelled as they were sent (`gt` stays `gt`). */
export function toWire(node: GroupNode): WireGroup;
export function toWire(node: FilterNode): WireNode;
export function toWire(node: FilterNode): WireNode {
  if (node.kind === 'group') return { operator: node.operator, conditions: node.conditions.map((c) => toWire(c)) };
  const out: WireCondition = { field: node.field, operator: node.operator };
  if (node.kind === 'segment') return out;
  if (node.value !== undefined) out.value = Array.isArray(node.value) ? [...node.value] : node.value;
  if (node.unit !== undefined) out.unit = node.unit;
  if (node.kind === 'activity' && node.within) out.within = { ...node.within };
  return out;
}

/** Field types of the project's custom fields, keyed `data.<path>` (the contacts field registry). */
export type FieldTypes = ReadonlyMap<string, FieldType> | Readonly<Record<string, FieldType>>;

export function fieldTypeOf(types: FieldTypes | undefined, field: string): FieldType | undefined {
  if (!types) return undefined;
  if (types instanceof Map) return types.get(field);
  const record = types as Readonly<Record<string, FieldType>>;
  return Object.hasOwn(record, field) ? record[field] : undefined;
}

/**
 * What a referenced segment is, as the caller knows it:
 * - `dynamic`: its filter is inlined (recursively; cycles are refused);
 * - `stored`: membership is stored (static segments, dynamic ones once computed): `segment_memberships` in SQL,
 *   `contact.segmentIds` in memory;
 * - undefined: no such segment in this project.
 */
export type SegmentReference = { kind: 'dynamic'; filter: Filter } | { kind: 'stored' };
export type SegmentResolver = (segmentId: string) => SegmentReference | undefined;

/** What both evaluators need besides the filter. */
export interface EvaluationContext {
  /** The instant windows are measured from. */
  now: Date;
  /** Registered types of custom fields; a key not listed takes the type of the condition's value. */
  fieldTypes?: FieldTypes;
  /** Resolves `segment.<id>` references; without it every reference matches nobody. */
  segments?: SegmentResolver;
}

const COMPARISONS: ValueOperator[] = [
  'greaterThan',
  'lessThan',
  'greaterThanOrEqual',
  'lessThanOrEqual',
  'gt',
  'lt',
  'gte',
  'lte',
];
/** The operators each standard field takes. */
export const STANDARD_OPERATORS: Record<StandardField, ReadonlySet<ValueOperator>> = {
  email: new Set<ValueOperator>([
    'equals',
    'notEquals',
    'contains',
    'notContains',
    'startsWith',
    'in',
    'notIn',
    'exists',
    'notExists',
  ]),
  subscribed: new Set<ValueOperator>(['equals', 'notEquals', 'exists', 'notExists']),
  createdAt: new Set<ValueOperator>([
    'equals',
    'notEquals',
    'in',
    'notIn',
    'exists',
    'notExists',
    'within',
    'olderThan',
    ...COMPARISONS,
  ]),
  updatedAt: new Set<ValueOperator>([
    'equals',
    'notEquals',
    'in',
    'notIn',
    'exists',
    'notExists',
    'within',
    'olderThan',
    ...COMPARISONS,
  ]),
};
