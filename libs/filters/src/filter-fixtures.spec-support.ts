/**
 * The shared fixture table: five contacts, and conditions with the contacts each must match. The
 * matcher runs it in filter-fixtures.spec.ts, PostgreSQL in filter-fixtures.int.spec.ts; the
 * expectations are written once, here, from docs/filters.md.
 */
import type { FieldType } from '@herald/contact-data';
import type { FilterContact } from './match-contact.js';
import type { SegmentReference, SegmentResolver, WireCondition, WireGroup } from './model.js';
import { parseFilter } from './parse-filter.js';

export const FIXTURE_NOW = new Date('2024-06-15T12:00:00.000Z');
const at = (iso: string) => new Date(iso);

/** The project's field registry: `score`, `note`, `tags` and the rest are not registered. */
export const FIXTURE_FIELD_TYPES: Record<string, FieldType> = {
  'data.plan': 'string',
  'data.age': 'number',
  'data.vip': 'boolean',
  'data.birthday': 'date',
  'data.signupAt': 'date',
  'data.profile.tier': 'string',
};

export const FIXTURE_CONTACTS: FilterContact[] = [
  {
    id: 'ada',
    email: 'ada@example.com',
    subscribed: true,
    createdAt: at('2024-06-10T08:00:00Z'),
    updatedAt: at('2024-06-15T11:00:00Z'),
    data: {
      plan: 'pro',
      age: 36,
      vip: true,
      birthday: '1988-12-10',
      profile: { tier: 'gold' },
      signupAt: '2024-06-14T09:00:00Z',
      tags: ['a', 'b'],
      note: `100% sure_thing \\ "quoted" it's`,
    },
    events: [
      { name: 'purchase', occurredAt: at('2024-06-14T10:00:00Z') },
      { name: 'purchase', occurredAt: at('2024-06-01T00:00:00Z') },
      { name: 'purchase', occurredAt: at('2024-01-01T00:00:00Z') },
      { name: 'login', occurredAt: at('2024-06-15T11:59:00Z') },
    ],
    emails: [
      { kind: 'sent', occurredAt: at('2024-06-14T10:00:00Z') },
      { kind: 'opened', occurredAt: at('2024-06-14T10:05:00Z') },
    ],
    segmentIds: new Set(['seg_static']),
  },
  {
    id: 'bob',
    email: 'bob@test.org',
    subscribed: false,
    createdAt: at('2023-01-01T00:00:00Z'),
    updatedAt: at('2024-01-01T00:00:00Z'),
    data: {
      plan: 'free',
      age: '36',
      vip: 'true',
      birthday: '12/10/1988',
      profile: { tier: ['gold'] },
      signupAt: '2024-02-30',
      score: null,
      note: '100 sure thing',
    },
    // exactly one day before now: inside "within 1 day"
    events: [{ name: 'purchase', occurredAt: at('2024-06-14T12:00:00Z') }],
    emails: [{ kind: 'bounced', occurredAt: at('2024-06-10T00:00:00Z') }],
    segmentIds: new Set(),
  },
  {
    id: 'cyd',
    email: 'cyd@example.org',
    subscribed: true,
    createdAt: at('2024-06-15T12:00:00Z'),
    updatedAt: at('2024-06-15T12:00:00Z'),
    data: {},
    events: [],
    emails: [],
    segmentIds: new Set(),
  },
  {
    id: 'dee',
    email: 'dee.smith@example.com',
    subscribed: true,
    // exactly one calendar month before now
    createdAt: at('2024-05-15T12:00:00Z'),
    updatedAt: at('2024-06-01T00:00:00Z'),
    data: {
      plan: 'Pro',
      age: 17.5,
      vip: false,
      birthday: '2024-06-08',
      profile: 'gold',
      signupAt: '2024-05-15T12:00:00.000Z',
      score: -3,
      note: 'sure',
    },
    events: [
      { name: 'signup', occurredAt: at('2024-05-14T00:00:00Z') },
      // one millisecond in the future: ever, but not within any window
      { name: 'purchase', occurredAt: at('2024-06-15T12:00:00.001Z') },
    ],
    emails: [
      { kind: 'clicked', occurredAt: at('2024-06-15T11:30:00Z') },
      { kind: 'sent', occurredAt: at('2024-06-15T11:00:00Z') },
    ],
    segmentIds: new Set(['seg_static']),
  },
  {
    id: 'eve',
    email: 'eve@example.com',
    subscribed: false,
    createdAt: at('2024-06-15T11:59:00Z'),
    updatedAt: at('2024-06-15T11:59:00Z'),
    data: {
      plan: null,
      age: 1e21,
      profile: { tier: null },
      'a.b': 'dotted',
      '0': { x: 1 },
      arr: [{ x: 1 }],
      list: [1, 2],
    },
    events: [
      { name: 'purchase', occurredAt: at('2024-06-10T00:00:00Z') },
      { name: 'purchase', occurredAt: at('2024-06-12T00:00:00Z') },
    ],
    emails: [],
    segmentIds: new Set(),
  },
];

const and = (...conditions: Array<WireCondition | WireGroup>): WireGroup => ({ operator: 'AND', conditions });
const or = (...conditions: Array<WireCondition | WireGroup>): WireGroup => ({ operator: 'OR', conditions });

/** Referenced segments: stored, dynamic, nested, and a cycle (a ↔ b). */
export const FIXTURE_SEGMENTS: Record<string, { kind: 'stored' } | { kind: 'dynamic'; filter: WireGroup }> = {
  seg_static: { kind: 'stored' },
  seg_pro: { kind: 'dynamic', filter: and({ field: 'data.plan', operator: 'equals', value: 'pro' }) },
  seg_nested: {
    kind: 'dynamic',
    filter: or({ field: 'segment.seg_pro', operator: 'isMember' }, { field: 'data.age', operator: 'lt', value: 18 }),
  },
  seg_loop_a: { kind: 'dynamic', filter: and({ field: 'segment.seg_loop_b', operator: 'isMember' }) },
  seg_loop_b: { kind: 'dynamic', filter: and({ field: 'segment.seg_loop_a', operator: 'isMember' }) },
};

/** The resolver the fixture rows are evaluated with. */
export function fixtureSegments(): SegmentResolver {
  const parsed = new Map<string, SegmentReference>();
  for (const [id, ref] of Object.entries(FIXTURE_SEGMENTS))
    parsed.set(id, ref.kind === 'stored' ? ref : { kind: 'dynamic', filter: parseFilter(ref.filter, `segment ${id}`) });
  return (id) => parsed.get(id);
}

export interface FixtureRow {
  /** The rule the row proves. */
  rule: string;
  filter: WireGroup;
  /** Ids of the contacts that match, in fixture order. */
  expected: string[];
}

const ALL = ['ada', 'bob', 'cyd', 'dee', 'eve'];
const row = (rule: string, filter: WireCondition | WireGroup, expected: string[]): FixtureRow => ({
  rule,
  filter: 'conditions' in filter ? filter : and(filter),
  expected,
});
const c = (field: string, operator: string, value?: WireCondition['value'], unit?: WireCondition['unit']) => {
  const out: WireCondition = { field, operator };
  if (value !== undefined) out.value = value;
  if (unit !== undefined) out.unit = unit;
  return out;
};

export const FIXTURE_ROWS: FixtureRow[] = [
  // email: case-insensitive (both sides normalised), LIKE metacharacters are literal
  row('email equals compares the normalised address', c('email', 'equals', ' ADA@Example.com '), ['ada']),
  row('email notEquals is the complement of equals', c('email', 'notEquals', 'ada@example.com'), [
    'bob',
    'cyd',
    'dee',
    'eve',
  ]),
  row('email contains is case-insensitive', c('email', 'contains', 'EXAMPLE.COM'), ['ada', 'dee', 'eve']),
  row('email notContains', c('email', 'notContains', 'example'), ['bob']),
  row('email startsWith', c('email', 'startsWith', 'dee.'), ['dee']),
  row('email startsWith treats _ literally', c('email', 'startsWith', 'dee_'), []),
  row('email contains treats % literally', c('email', 'contains', '%'), []),
  row('email in', c('email', 'in', ['bob@test.org', 'EVE@example.com']), ['bob', 'eve']),
  row('email notIn', c('email', 'notIn', ['bob@test.org', 'EVE@example.com']), ['ada', 'cyd', 'dee']),
  row('email always exists', c('email', 'exists'), ALL),
  row('email notExists matches nobody', c('email', 'notExists'), []),
  // subscribed
  row('subscribed equals true', c('subscribed', 'equals', true), ['ada', 'cyd', 'dee']),
  row('subscribed equals false', c('subscribed', 'equals', false), ['bob', 'eve']),
  row('subscribed notEquals true', c('subscribed', 'notEquals', true), ['bob', 'eve']),
  row('subscribed always exists', c('subscribed', 'exists'), ALL),
  // createdAt / updatedAt: instants, windows inclusive at both ends, months are calendar months
  row('createdAt within 7 days includes now itself', c('createdAt', 'within', 7, 'days'), ['ada', 'cyd', 'eve']),
  row('createdAt within 1 month includes its first instant', c('createdAt', 'within', 1, 'months'), [
    'ada',
    'cyd',
    'dee',
    'eve',
  ]),
  row('createdAt olderThan 1 month excludes the boundary', c('createdAt', 'olderThan', 1, 'months'), ['bob']),
  row('a month is a calendar month, not 30 days', c('createdAt', 'olderThan', 30, 'days'), ['bob', 'dee']),
  row('within defaults to days', c('createdAt', 'within', 7), ['ada', 'cyd', 'eve']),
  row('createdAt gt a day compares with its UTC midnight', c('createdAt', 'gt', '2024-06-10'), ['ada', 'cyd', 'eve']),
  row('createdAt lte a timestamp', c('createdAt', 'lte', '2024-05-15T12:00:00Z'), ['bob', 'dee']),
  row('createdAt equals an instant', c('createdAt', 'equals', '2024-06-15T12:00:00.000Z'), ['cyd']),
  row('createdAt notEquals an instant', c('createdAt', 'notEquals', '2024-06-15T12:00:00Z'), [
    'ada',
    'bob',
    'dee',
    'eve',
  ]),
  row('createdAt in instants', c('createdAt', 'in', ['2023-01-01', '2024-05-15T12:00:00Z']), ['bob', 'dee']),
  row('updatedAt within 1 hour', c('updatedAt', 'within', 1, 'hours'), ['ada', 'cyd', 'eve']),
  row('updatedAt within 60 minutes', c('updatedAt', 'within', 60, 'minutes'), ['ada', 'cyd', 'eve']),
  row('updatedAt lessThan is strict', c('updatedAt', 'lessThan', '2024-06-01'), ['bob']),
  row('updatedAt greaterThanOrEqual', c('updatedAt', 'greaterThanOrEqual', '2024-06-01'), ['ada', 'cyd', 'dee', 'eve']),
  row('updatedAt olderThan 2 weeks', c('updatedAt', 'olderThan', 2, 'weeks'), ['bob', 'dee']),
  // data, string field: exact and case-sensitive; a missing key or null fails positive operators
  row('string equals is exact', c('data.plan', 'equals', 'pro'), ['ada']),
  row('string notEquals includes missing keys and nulls', c('data.plan', 'notEquals', 'pro'), [
    'bob',
    'cyd',
    'dee',
    'eve',
  ]),
  row('string contains is case-sensitive', c('data.plan', 'contains', 'ro'), ['ada', 'dee']),
  row('string notContains includes missing keys and nulls', c('data.plan', 'notContains', 'ro'), ['bob', 'cyd', 'eve']),
  row('string startsWith', c('data.plan', 'startsWith', 'P'), ['dee']),
  row('string in', c('data.plan', 'in', ['pro', 'free']), ['ada', 'bob']),
  row('string notIn', c('data.plan', 'notIn', ['pro', 'free']), ['cyd', 'dee', 'eve']),
  row('exists: present and not null', c('data.plan', 'exists'), ['ada', 'bob', 'dee']),
  row('notExists: missing or null', c('data.plan', 'notExists'), ['cyd', 'eve']),
  row('contains treats % literally', c('data.note', 'contains', '100%'), ['ada']),
  row('contains treats _ literally', c('data.note', 'contains', '_'), ['ada']),
  row('contains treats a backslash literally', c('data.note', 'contains', '\\'), ['ada']),
  row('contains with quotes', c('data.note', 'contains', `"quoted" it's`), ['ada']),
  row('a number on a string field matches nobody', c('data.plan', 'equals', 5), []),
  row('… and its negation everybody', c('data.plan', 'notEquals', 5), ALL),
  row('a range on a string field matches nobody', c('data.plan', 'gt', 5), []),
  // data, number field: numeric comparison; "36" (a string) is not 36
  row('number equals', c('data.age', 'equals', 36), ['ada']),
  row('number notEquals', c('data.age', 'notEquals', 36), ['bob', 'cyd', 'dee', 'eve']),
  row('number gt', c('data.age', 'gt', 17.5), ['ada', 'eve']),
  row('number gte', c('data.age', 'gte', 17.5), ['ada', 'dee', 'eve']),
  row('number lt', c('data.age', 'lt', 36), ['dee']),
  row('number lte', c('data.age', 'lessThanOrEqual', 36), ['ada', 'dee']),
  row('number greaterThan a large number', c('data.age', 'greaterThan', 1e20), ['eve']),
  row('number in', c('data.age', 'in', [36, 17.5]), ['ada', 'dee']),
  row('number notIn', c('data.age', 'notIn', [36]), ['bob', 'cyd', 'dee', 'eve']),
  row('number exists whatever the stored type', c('data.age', 'exists'), ['ada', 'bob', 'dee', 'eve']),
  row('a string on a number field matches nobody', c('data.age', 'equals', '36'), []),
  row('contains on a number field matches nobody', c('data.age', 'contains', '3'), []),
  row('notContains on a number field matches everybody', c('data.age', 'notContains', '3'), ALL),
  row('within on a number field matches nobody', c('data.age', 'within', 3, 'days'), []),
  // data, boolean field
  row('boolean equals true', c('data.vip', 'equals', true), ['ada']),
  row('boolean equals false', c('data.vip', 'equals', false), ['dee']),
  row('boolean notEquals true', c('data.vip', 'notEquals', true), ['bob', 'cyd', 'dee', 'eve']),
  row('boolean in', c('data.vip', 'in', [true, false]), ['ada', 'dee']),
  // data, date field: instants; slash dates and impossible days never qualify
  row('date equals a day', c('data.birthday', 'equals', '1988-12-10'), ['ada']),
  row('date equals the same instant written in full', c('data.birthday', 'equals', '1988-12-10T00:00:00Z'), ['ada']),
  row('date lt: a slash date never qualifies', c('data.birthday', 'lt', '2000-01-01'), ['ada']),
  row('date within 7 days: a day is its UTC midnight', c('data.birthday', 'within', 7, 'days'), []),
  row('date within 8 days', c('data.birthday', 'within', 8, 'days'), ['dee']),
  row('date olderThan 1 week', c('data.birthday', 'olderThan', 1, 'weeks'), ['ada', 'dee']),
  row('date within 1 month, boundary included', c('data.signupAt', 'within', 1, 'months'), ['ada', 'dee']),
  row('date olderThan 1 day: an impossible day never qualifies', c('data.signupAt', 'olderThan', 1, 'days'), [
    'ada',
    'dee',
  ]),
  row('date gte', c('data.signupAt', 'gte', '2024-05-15T12:00:00Z'), ['ada', 'dee']),
  row('date in', c('data.signupAt', 'in', ['2024-05-15T12:00:00Z']), ['dee']),
  row('date notEquals', c('data.signupAt', 'notEquals', '2024-05-15T12:00:00Z'), ['ada', 'bob', 'cyd', 'eve']),
  row('date exists whatever the stored type', c('data.birthday', 'exists'), ['ada', 'bob', 'dee']),
  row('a number on a date field matches nobody', c('data.birthday', 'gt', 5), []),
  // unregistered keys take the type of the condition's value; paths descend objects only
  row('unregistered key, number value: numeric', c('data.score', 'lt', 0), ['dee']),
  row('unregistered key, string value: exact', c('data.note', 'equals', 'sure'), ['dee']),
  row('unregistered key, date value: only dates qualify', c('data.note', 'gt', '2024-01-01'), []),
  row('an array is not equal to its element', c('data.tags', 'equals', 'a'), []),
  row('an array exists', c('data.tags', 'exists'), ['ada']),
  row('a nested path', c('data.profile.tier', 'equals', 'gold'), ['ada']),
  row('a nested path exists', c('data.profile.tier', 'exists'), ['ada', 'bob']),
  row('an object exists', c('data.profile', 'exists'), ['ada', 'bob', 'dee', 'eve']),
  row('a key holding a dot cannot be addressed', c('data.a.b', 'equals', 'dotted'), []),
  row('a numeric key addresses an object member', c('data.0.x', 'equals', 1), ['eve']),
  row('a numeric key never addresses an array element', c('data.arr.0.x', 'equals', 1), []),
  row('… nor for exists', c('data.arr.0.x', 'exists'), []),
  row('… nor for ranges', c('data.list.1', 'gt', 0), []),
  row('a missing key: notEquals matches', c('data.missing', 'notEquals', 'x'), ALL),
  row('a missing key: exists does not', c('data.missing', 'exists'), []),
  // events: ever, windows [now − N, now], counts
  row('event triggered ever (future included)', c('event.purchase', 'triggered'), ['ada', 'bob', 'dee', 'eve']),
  row('event notTriggered', c('event.purchase', 'notTriggered'), ['cyd']),
  row('event triggeredWithin 1 day includes its first instant', c('event.purchase', 'triggeredWithin', 1, 'days'), [
    'bob',
  ]),
  row('triggeredWithin defaults to days', c('event.purchase', 'triggeredWithin', 1), ['bob']),
  row('event triggeredWithin 2 days', c('event.purchase', 'triggeredWithin', 2, 'days'), ['ada', 'bob']),
  row('event notTriggeredWithin 2 days', c('event.purchase', 'notTriggeredWithin', 2, 'days'), ['cyd', 'dee', 'eve']),
  row('event names are case-sensitive', c('event.Purchase', 'triggered'), []),
  row('event login', c('event.login', 'triggered'), ['ada']),
  row('countGreaterThanOrEqual', c('event.purchase', 'countGreaterThanOrEqual', 3), ['ada']),
  row('countEquals 0 holds without any event', c('event.purchase', 'countEquals', 0), ['cyd']),
  row('countEquals 2', c('event.purchase', 'countEquals', 2), ['eve']),
  row('countLessThan 2 includes contacts without events', c('event.purchase', 'countLessThan', 2), [
    'bob',
    'cyd',
    'dee',
  ]),
  row('countLessThanOrEqual 1', c('event.purchase', 'countLessThanOrEqual', 1), ['bob', 'cyd', 'dee']),
  row('countGreaterThan 1', c('event.purchase', 'countGreaterThan', 1), ['ada', 'eve']),
  row(
    'count within a window',
    { field: 'event.purchase', operator: 'countGreaterThanOrEqual', value: 2, within: { amount: 1, unit: 'months' } },
    ['ada', 'eve'],
  ),
  row(
    'countEquals 0 within a window',
    { field: 'event.purchase', operator: 'countEquals', value: 0, within: { amount: 1, unit: 'weeks' } },
    ['cyd', 'dee'],
  ),
  // email engagement
  row('email.opened triggered', c('email.opened', 'triggered'), ['ada']),
  row('email.sent triggeredWithin 1 hour', c('email.sent', 'triggeredWithin', 1, 'hours'), ['dee']),
  row('email.bounced notTriggered', c('email.bounced', 'notTriggered'), ['ada', 'cyd', 'dee', 'eve']),
  row(
    'email.clicked count within a window',
    { field: 'email.clicked', operator: 'countGreaterThanOrEqual', value: 1, within: { amount: 1, unit: 'days' } },
    ['dee'],
  ),
  row('email.sent countEquals 1', c('email.sent', 'countEquals', 1), ['ada', 'dee']),
  // segments
  row('stored membership', c('segment.seg_static', 'isMember'), ['ada', 'dee']),
  row('stored non-membership', c('segment.seg_static', 'isNotMember'), ['bob', 'cyd', 'eve']),
  row('a dynamic segment is inlined', c('segment.seg_pro', 'isMember'), ['ada']),
  row('isNotMember of a dynamic segment', c('segment.seg_pro', 'isNotMember'), ['bob', 'cyd', 'dee', 'eve']),
  row('dynamic segments nest', c('segment.seg_nested', 'isMember'), ['ada', 'dee']),
  row('a cycle matches nobody at evaluation', c('segment.seg_loop_a', 'isMember'), []),
  row('an unknown segment matches nobody', c('segment.seg_unknown', 'isMember'), []),
  row('… and isNotMember of it everybody', c('segment.seg_unknown', 'isNotMember'), ALL),
  // groups
  row('AND of conditions', and(c('subscribed', 'equals', true), c('data.plan', 'contains', 'ro')), ['ada', 'dee']),
  row('OR of conditions', or(c('data.vip', 'equals', false), c('event.login', 'triggered')), ['ada', 'dee']),
  row('an empty AND matches everybody', and(), ALL),
  row('an empty OR matches nobody', or(), []),
  row(
    'nested groups',
    and(or(c('email', 'contains', 'bob'), c('email', 'contains', 'eve')), c('subscribed', 'equals', false)),
    ['bob', 'eve'],
  ),
];
