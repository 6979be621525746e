import { FieldType, flattenLeaves, inferFieldType, isIsoDate, isPlainObject } from './field-types.js';

describe('Type inference of custom fields (spec table: detected type → rule)', () => {
  const rows: Array<[FieldType | null, string, unknown]> = [
    // number: numeric value such as an integer or decimal
    ['number', 'an integer', 42],
    ['number', 'zero', 0],
    ['number', 'a negative integer', -7],
    ['number', 'a decimal', 3.14],
    ['number', 'a negative decimal', -0.5],
    // boolean: true or false
    ['boolean', 'true', true],
    ['boolean', 'false', false],
    // date: string matching YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.sss]Z
    ['date', 'YYYY-MM-DD', '2024-03-12'],
    ['date', 'a leap day', '2024-02-29'],
    ['date', 'a leap day in a 400-year', '2000-02-29'],
    ['date', 'YYYY-MM-DDTHH:MM:SSZ', '2024-03-12T10:20:30Z'],
    ['date', 'YYYY-MM-DDTHH:MM:SS.sssZ', '2024-03-12T10:20:30.123Z'],
    ['date', 'midnight and the last second of a day', '2024-12-31T23:59:59Z'],
    // string: anything else
    ['string', 'a word', 'gold'],
    ['string', 'a slash-separated day/month/year', '12/03/2024'],
    ['string', 'a numeric-looking string (JSON strings stay strings)', '42'],
    ['string', 'a boolean-looking string', 'true'],
    ['string', 'an empty string', ''],
    ['string', 'a day that does not exist', '2024-02-30'],
    ['string', 'Feb 29 in a common year', '2023-02-29'],
    ['string', 'Feb 29 in a century year', '1900-02-29'],
    ['string', 'month 13', '2024-13-01'],
    ['string', 'day 00', '2024-01-00'],
    ['string', 'hour 24', '2024-03-12T24:00:00Z'],
    ['string', 'minute 60', '2024-03-12T10:60:00Z'],
    ['string', 'second 60', '2024-03-12T10:20:60Z'],
    ['string', 'a timestamp with an offset instead of Z', '2024-03-12T10:20:30+02:00'],
    ['string', 'a timestamp without Z', '2024-03-12T10:20:30'],
    ['string', 'a space instead of T', '2024-03-12 10:20:30Z'],
    ['string', 'a timestamp without seconds', '2024-03-12T10:20Z'],
    ['string', 'two fraction digits', '2024-03-12T10:20:30.12Z'],
    ['string', 'six fraction digits', '2024-03-12T10:20:30.123456Z'],
    ['string', 'lower-case t and z', '2024-03-12t10:20:30z'],
    ['string', 'a date with surrounding whitespace', ' 2024-03-12 '],
    ['string', 'a compact date', '20240312'],
    ['string', 'NaN', Number.NaN],
    ['string', 'Infinity', Number.POSITIVE_INFINITY],
    // no type: null never fixes a type; objects and arrays are not leaves
    [null, 'null', null],
    [null, 'undefined', undefined],
    [null, 'a plain object', { tier: 'gold' }],
    [null, 'an empty object', {}],
    [null, 'an array', [1, 2]],
    [null, 'an empty array', []],
  ];

  it.each(rows)('infers %s for %s', (expected, _label, value) => {
    expect(inferFieldType(value)).toBe(expected);
  });

  it('agrees with isIsoDate on every string row', () => {
    for (const [expected, , value] of rows) {
      if (typeof value === 'string') expect(isIsoDate(value)).toBe(expected === 'date');
    }
  });

  it('isIsoDate is false for non-strings', () => {
    expect(isIsoDate(20240312)).toBe(false);
    expect(isIsoDate(null)).toBe(false);
  });
});

describe('nested objects are addressed with dotted paths (flattenLeaves)', () => {
  it.each<[string, Record<string, unknown>, string | undefined, Array<[string, unknown]>]>([
    [
      'flat keys get the data. prefix',
      { plan: 'gold', visits: 3 },
      undefined,
      [
        ['data.plan', 'gold'],
        ['data.visits', 3],
      ],
    ],
    [
      'nested objects become dotted paths',
      { profile: { tier: 'gold', address: { city: 'Berlin' } } },
      undefined,
      [
        ['data.profile.tier', 'gold'],
        ['data.profile.address.city', 'Berlin'],
      ],
    ],
    ['arrays are leaves', { tags: ['a', { b: 1 }] }, undefined, [['data.tags', ['a', { b: 1 }]]]],
    ['nested nulls are leaves', { profile: { tier: null } }, undefined, [['data.profile.tier', null]]],
    ['an empty nested object yields nothing', { profile: {} }, undefined, []],
    ['a custom prefix is used (templates: none)', { profile: { tier: 'gold' } }, '', [['profile.tier', 'gold']]],
  ])('%s', (_label, data, prefix, expected) => {
    expect(prefix === undefined ? flattenLeaves(data) : flattenLeaves(data, prefix)).toEqual(expected);
  });

  it('feeds inferFieldType with leaves only', () => {
    const types = flattenLeaves({ n: 1, d: '2024-01-01', p: { b: true, s: 'x' } }).map(([path, value]) => [
      path,
      inferFieldType(value),
    ]);
    expect(types).toEqual([
      ['data.n', 'number'],
      ['data.d', 'date'],
      ['data.p.b', 'boolean'],
      ['data.p.s', 'string'],
    ]);
  });
});

describe('isPlainObject recognises JSON objects only', () => {
  it.each<[unknown, boolean]>([
    [{}, true],
    [Object.create(null), true],
    [JSON.parse('{"a":1}'), true],
    [[], false],
    [null, false],
    [new Date(0), false],
    ['x', false],
  ])('isPlainObject(%p) is %p', (value, expected) => {
    expect(isPlainObject(value)).toBe(expected);
  });
});
