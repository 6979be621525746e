import { DomainError } from '@herald/core';
import { toWire } from './model.js';
import { parseFilter } from './parse-filter.js';

/** The problems parseFilter reports for `raw`, as `field code` strings. */
function problems(raw: unknown, path?: string): string[] {
  try {
    parseFilter(raw, path);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    expect(err.kind).toBe('invalid');
    expect(err.code).toBe('VALIDATION_ERROR');
    return (err.details.errors ?? []).map((e) => `${e.field} ${e.code}`);
  }
  return [];
}
const one = (condition: unknown) => ({ operator: 'AND', conditions: [condition] });

describe('parseFilter: a malformed filter is a 422 naming the bad part', () => {
  it.each<[string, unknown, string[]]>([
    ['the root is not an object', 'AND', ['filters FILTER_INVALID']],
    ['the root is a bare condition', { field: 'email', operator: 'exists' }, ['filters FILTER_INVALID']],
    ['the group operator is missing', { conditions: [] }, ['filters.operator FILTER_INVALID']],
    ['the group operator is lower case', { operator: 'and', conditions: [] }, ['filters.operator FILTER_INVALID']],
    ['conditions is not an array', { operator: 'AND', conditions: {} }, ['filters.conditions FILTER_INVALID']],
    [
      'a group has an unknown property',
      { operator: 'AND', conditions: [], not: true },
      ['filters.not FILTER_PROPERTY_UNKNOWN'],
    ],
    ['a condition is not an object', one(42), ['filters.conditions[0] FILTER_INVALID']],
    ['a condition has no field', one({ operator: 'exists' }), ['filters.conditions[0].field FILTER_INVALID']],
    ['a condition has no operator', one({ field: 'email' }), ['filters.conditions[0].operator FILTER_INVALID']],
    [
      'an unknown field',
      one({ field: 'name', operator: 'exists' }),
      ['filters.conditions[0].field FILTER_FIELD_UNKNOWN'],
    ],
    [
      'data. without a path',
      one({ field: 'data.', operator: 'exists' }),
      ['filters.conditions[0].field FILTER_FIELD_UNKNOWN'],
    ],
    [
      'an empty key in a path',
      one({ field: 'data.a..b', operator: 'exists' }),
      ['filters.conditions[0].field FILTER_FIELD_UNKNOWN'],
    ],
    [
      'a path too deep',
      one({ field: `data.${'k.'.repeat(10)}k`, operator: 'exists' }),
      ['filters.conditions[0].field FILTER_FIELD_UNKNOWN'],
    ],
    [
      'event. without a name',
      one({ field: 'event.', operator: 'triggered' }),
      ['filters.conditions[0].field FILTER_FIELD_UNKNOWN'],
    ],
    [
      'an unknown engagement kind',
      one({ field: 'email.read', operator: 'triggered' }),
      ['filters.conditions[0].field FILTER_FIELD_UNKNOWN'],
    ],
    [
      'segment. without an id',
      one({ field: 'segment.', operator: 'isMember' }),
      ['filters.conditions[0].field FILTER_FIELD_UNKNOWN'],
    ],
    [
      'an unknown operator',
      one({ field: 'email', operator: 'like', value: 'a' }),
      ['filters.conditions[0].operator FILTER_OPERATOR_UNKNOWN'],
    ],
    [
      'an event operator on a data field',
      one({ field: 'data.plan', operator: 'triggered' }),
      ['filters.conditions[0].operator FILTER_OPERATOR_NOT_ALLOWED'],
    ],
    [
      'a value operator on an event',
      one({ field: 'event.buy', operator: 'equals', value: 1 }),
      ['filters.conditions[0].operator FILTER_OPERATOR_NOT_ALLOWED'],
    ],
    [
      'in/notIn on a segment',
      one({ field: 'segment.s1', operator: 'in', value: ['x'] }),
      ['filters.conditions[0].operator FILTER_OPERATOR_NOT_ALLOWED'],
    ],
    [
      'contains on subscribed',
      one({ field: 'subscribed', operator: 'contains', value: 't' }),
      ['filters.conditions[0].operator FILTER_OPERATOR_NOT_ALLOWED'],
    ],
    [
      'within on email',
      one({ field: 'email', operator: 'within', value: 1 }),
      ['filters.conditions[0].operator FILTER_OPERATOR_NOT_ALLOWED'],
    ],
    [
      'an unknown condition property',
      one({ field: 'email', operator: 'exists', units: 'days' }),
      ['filters.conditions[0].units FILTER_PROPERTY_UNKNOWN'],
    ],
    [
      'equals without a value',
      one({ field: 'data.plan', operator: 'equals' }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'equals with an object',
      one({ field: 'data.plan', operator: 'equals', value: { a: 1 } }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'equals with null',
      one({ field: 'data.plan', operator: 'equals', value: null }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'a string with NUL',
      one({ field: 'data.plan', operator: 'equals', value: 'a\u0000' }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'a lone surrogate',
      one({ field: 'data.plan', operator: 'contains', value: '\ud800' }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'a string too long',
      one({ field: 'data.plan', operator: 'equals', value: 'x'.repeat(1001) }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'email equals a number',
      one({ field: 'email', operator: 'equals', value: 1 }),
      ['filters.conditions[0].value FILTER_VALUE_TYPE'],
    ],
    [
      'subscribed equals a string',
      one({ field: 'subscribed', operator: 'equals', value: 'true' }),
      ['filters.conditions[0].value FILTER_VALUE_TYPE'],
    ],
    [
      'createdAt equals a slash date',
      one({ field: 'createdAt', operator: 'equals', value: '12/03/2024' }),
      ['filters.conditions[0].value FILTER_VALUE_TYPE'],
    ],
    [
      'createdAt gt a number',
      one({ field: 'createdAt', operator: 'gt', value: 5 }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'gt with a plain string',
      one({ field: 'data.age', operator: 'gt', value: 'abc' }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'gt with a slash date',
      one({ field: 'data.day', operator: 'gte', value: '2024/03/12' }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'contains with a number',
      one({ field: 'data.plan', operator: 'contains', value: 4 }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'in with a scalar',
      one({ field: 'data.plan', operator: 'in', value: 'pro' }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'in with an empty list',
      one({ field: 'data.plan', operator: 'in', value: [] }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'in with too many values',
      one({ field: 'data.n', operator: 'in', value: Array.from({ length: 101 }, (_, i) => i) }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'in with a bad element',
      one({ field: 'data.plan', operator: 'notIn', value: ['a', {}, 'b'] }),
      ['filters.conditions[0].value[1] FILTER_VALUE_INVALID'],
    ],
    [
      'in with mixed types',
      one({ field: 'data.plan', operator: 'in', value: ['a', 1] }),
      ['filters.conditions[0].value[1] FILTER_VALUE_INVALID'],
    ],
    [
      'exists with a value',
      one({ field: 'data.plan', operator: 'exists', value: 'x' }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'equals with a unit',
      one({ field: 'data.plan', operator: 'equals', value: 'x', unit: 'days' }),
      ['filters.conditions[0].unit FILTER_PROPERTY_UNKNOWN'],
    ],
    [
      'within without an amount',
      one({ field: 'createdAt', operator: 'within', unit: 'days' }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'within with a fraction',
      one({ field: 'createdAt', operator: 'within', value: 1.5 }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'within zero',
      one({ field: 'createdAt', operator: 'within', value: 0 }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'within a string',
      one({ field: 'createdAt', operator: 'within', value: '7' }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'olderThan in years',
      one({ field: 'data.day', operator: 'olderThan', value: 1, unit: 'years' }),
      ['filters.conditions[0].unit FILTER_UNIT_INVALID'],
    ],
    [
      'a singular unit',
      one({ field: 'data.day', operator: 'within', value: 1, unit: 'day' }),
      ['filters.conditions[0].unit FILTER_UNIT_INVALID'],
    ],
    [
      'triggered with a value',
      one({ field: 'event.buy', operator: 'triggered', value: 1 }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'triggered with a window',
      one({ field: 'event.buy', operator: 'triggered', within: { amount: 1, unit: 'days' } }),
      ['filters.conditions[0].within FILTER_PROPERTY_UNKNOWN'],
    ],
    [
      'triggeredWithin without an amount',
      one({ field: 'event.buy', operator: 'triggeredWithin' }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'a negative count',
      one({ field: 'event.buy', operator: 'countEquals', value: -1 }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
    [
      'a count with a unit',
      one({ field: 'event.buy', operator: 'countEquals', value: 1, unit: 'days' }),
      ['filters.conditions[0].unit FILTER_PROPERTY_UNKNOWN'],
    ],
    [
      'a count window that is not an object',
      one({ field: 'email.opened', operator: 'countGreaterThan', value: 1, within: 7 }),
      ['filters.conditions[0].within FILTER_INVALID'],
    ],
    [
      'a count window without an amount',
      one({ field: 'event.buy', operator: 'countLessThan', value: 1, within: { unit: 'days' } }),
      ['filters.conditions[0].within.amount FILTER_VALUE_INVALID'],
    ],
    [
      'a count window without a unit',
      one({ field: 'event.buy', operator: 'countLessThan', value: 1, within: { amount: 2 } }),
      ['filters.conditions[0].within.unit FILTER_UNIT_INVALID'],
    ],
    [
      'a count window with an unknown property',
      one({ field: 'event.buy', operator: 'countLessThan', value: 1, within: { amount: 2, unit: 'days', x: 1 } }),
      ['filters.conditions[0].within.x FILTER_PROPERTY_UNKNOWN'],
    ],
    [
      'isMember with a value',
      one({ field: 'segment.s1', operator: 'isMember', value: true }),
      ['filters.conditions[0].value FILTER_VALUE_INVALID'],
    ],
  ])('%s', (_rule, raw, expected) => {
    expect(problems(raw)).toEqual(expected);
  });

  it('lists every problem of a filter, each with its path, nested groups included', () => {
    expect(
      problems({
        operator: 'AND',
        conditions: [
          { field: 'email', operator: 'exists' },
          { field: 'data.age', operator: 'gt', value: 'abc' },
          {
            operator: 'OR',
            conditions: [
              { field: 'nope', operator: 'exists' },
              { field: 'event.x', operator: 'countEquals' },
            ],
          },
        ],
      }),
    ).toEqual([
      'filters.conditions[1].value FILTER_VALUE_INVALID',
      'filters.conditions[2].conditions[0].field FILTER_FIELD_UNKNOWN',
      'filters.conditions[2].conditions[1].value FILTER_VALUE_INVALID',
    ]);
  });

  it('paths start at the name the caller gives (audienceFilter, condition…)', () => {
    expect(problems(one({ field: 'nope', operator: 'exists' }), 'audienceFilter')).toEqual([
      'audienceFilter.conditions[0].field FILTER_FIELD_UNKNOWN',
    ]);
  });

  it('groups nest at most 5 levels deep', () => {
    const nest = (levels: number): unknown =>
      levels === 1
        ? { operator: 'AND', conditions: [{ field: 'email', operator: 'exists' }] }
        : { operator: 'AND', conditions: [nest(levels - 1)] };
    expect(problems(nest(5))).toEqual([]);
    expect(problems(nest(6))).toEqual([
      'filters.conditions[0].conditions[0].conditions[0].conditions[0].conditions[0] FILTER_TOO_DEEP',
    ]);
  });

  it('a filter holds at most 100 conditions and groups', () => {
    const exists = { field: 'email', operator: 'exists' };
    expect(problems({ operator: 'AND', conditions: Array.from({ length: 100 }, () => exists) })).toEqual([]);
    expect(problems({ operator: 'AND', conditions: Array.from({ length: 101 }, () => exists) })).toEqual([
      'filters.conditions[100] FILTER_TOO_LARGE',
    ]);
    expect(
      problems({
        operator: 'OR',
        conditions: Array.from({ length: 40 }, () => ({ operator: 'AND', conditions: [exists, exists] })),
      }),
    ).toEqual(['filters.conditions[33].conditions[0] FILTER_TOO_LARGE']);
  });

  it('a huge hostile filter is refused after a bounded amount of work, with a bounded list of problems', () => {
    const bad = { field: 'nope', operator: 'exists' };
    const deep: Record<string, unknown> = { operator: 'AND', conditions: [] };
    let cursor = deep;
    for (let i = 0; i < 100_000; i++) {
      const next = { operator: 'AND', conditions: [] };
      (cursor.conditions as unknown[]).push(next);
      cursor = next;
    }
    // the work is counted, not timed: every element of the million-item group read is one read
    let reads = 0;
    const wide = {
      operator: 'AND',
      conditions: new Proxy(
        Array.from({ length: 1_000_000 }, () => bad),
        {
          get(target, key, receiver) {
            if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
            return Reflect.get(target, key, receiver) as unknown;
          },
        },
      ),
    };
    expect(problems(wide).length).toBe(51);
    expect(reads).toBeLessThanOrEqual(1_000);
    // 100,000 levels would overflow a recursive walk: refused at the sixth level instead
    expect(problems(deep)).toEqual([
      'filters.conditions[0].conditions[0].conditions[0].conditions[0].conditions[0] FILTER_TOO_DEEP',
    ]);
  });

  it('accepts the spec example, the spellings gt/lt/gte/lte and unit-less windows, and echoes them as sent', () => {
    const raw = {
      operator: 'AND',
      conditions: [
        { field: 'data.plan', operator: 'equals', value: 'pro' },
        { field: 'data.age', operator: 'gt', value: 18 },
        { field: 'createdAt', operator: 'within', value: 7, unit: 'days' },
        { field: 'updatedAt', operator: 'olderThan', value: 3 },
        { field: 'data.day', operator: 'lte', value: '2024-03-12' },
        {
          field: 'event.purchase',
          operator: 'countGreaterThanOrEqual',
          value: 3,
          within: { amount: 1, unit: 'months' },
        },
        { field: 'email.opened', operator: 'notTriggeredWithin', value: 2, unit: 'weeks' },
        { operator: 'OR', conditions: [{ field: 'segment.seg_1', operator: 'isNotMember', value: null }] },
      ],
    };
    const filter = parseFilter(raw);
    expect(filter.conditions.map((c) => c.kind)).toEqual([
      'data',
      'data',
      'standard',
      'standard',
      'data',
      'activity',
      'activity',
      'group',
    ]);
    const echoed = structuredClone(raw);
    delete (echoed.conditions[7] as { conditions: Array<{ value?: unknown }> }).conditions[0]!.value;
    expect(toWire(filter)).toEqual(echoed);
  });
});
