import { applyDataPatch, dataSize, deepEqual, MAX_DATA_BYTES, RESERVED_DATA_KEYS } from './data-patch.js';
import { flattenLeaves } from './field-types.js';

interface Row {
  rule: string;
  current: Record<string, unknown>;
  patch: Record<string, unknown>;
  data: Record<string, unknown>;
  changedKeys: string[];
  transient?: Record<string, unknown>;
  renderData?: Record<string, unknown>;
}

describe('Rules for the data object (spec table: value sent for a key → behaviour)', () => {
  const rows: Row[] = [
    // string, number, boolean: stored on the contact
    { rule: 'a string is stored', current: {}, patch: { plan: 'gold' }, data: { plan: 'gold' }, changedKeys: ['plan'] },
    {
      rule: 'a string replaces the stored value',
      current: { plan: 'free' },
      patch: { plan: 'gold' },
      data: { plan: 'gold' },
      changedKeys: ['plan'],
    },
    { rule: 'an integer is stored', current: {}, patch: { visits: 42 }, data: { visits: 42 }, changedKeys: ['visits'] },
    { rule: 'a decimal is stored', current: {}, patch: { score: 9.5 }, data: { score: 9.5 }, changedKeys: ['score'] },
    {
      rule: 'zero is stored (not treated as empty)',
      current: { visits: 3 },
      patch: { visits: 0 },
      data: { visits: 0 },
      changedKeys: ['visits'],
    },
    { rule: 'boolean true is stored', current: {}, patch: { vip: true }, data: { vip: true }, changedKeys: ['vip'] },
    {
      rule: 'boolean false is stored (not treated as empty)',
      current: { vip: true },
      patch: { vip: false },
      data: { vip: false },
      changedKeys: ['vip'],
    },
    {
      rule: 'the same value again changes nothing',
      current: { plan: 'gold' },
      patch: { plan: 'gold' },
      data: { plan: 'gold' },
      changedKeys: [],
    },
    // null: deletes the key
    {
      rule: 'null deletes the key',
      current: { plan: 'gold', visits: 1 },
      patch: { plan: null },
      data: { visits: 1 },
      changedKeys: ['plan'],
    },
    {
      rule: 'null for a key that is not stored changes nothing',
      current: { visits: 1 },
      patch: { plan: null },
      data: { visits: 1 },
      changedKeys: [],
    },
    // empty string: ignored, existing value not overwritten
    {
      rule: 'an empty string does not overwrite the stored value',
      current: { plan: 'gold' },
      patch: { plan: '' },
      data: { plan: 'gold' },
      changedKeys: [],
    },
    { rule: 'an empty string does not create the key', current: {}, patch: { plan: '' }, data: {}, changedKeys: [] },
    // {value, persistent: false}: used for this send only, not stored
    {
      rule: 'a non-persistent value is not stored but is rendered',
      current: { plan: 'gold' },
      patch: { coupon: { value: 'SAVE10', persistent: false } },
      data: { plan: 'gold' },
      changedKeys: [],
      transient: { coupon: 'SAVE10' },
      renderData: { plan: 'gold', coupon: 'SAVE10' },
    },
    {
      rule: 'a non-persistent value neither changes nor deletes the stored key, and wins for rendering',
      current: { plan: 'gold' },
      patch: { plan: { value: 'trial', persistent: false } },
      data: { plan: 'gold' },
      changedKeys: [],
      transient: { plan: 'trial' },
      renderData: { plan: 'trial' },
    },
    {
      rule: 'a non-persistent null is passed to rendering as sent and does not delete',
      current: { plan: 'gold' },
      patch: { plan: { value: null, persistent: false } },
      data: { plan: 'gold' },
      changedKeys: [],
      transient: { plan: null },
      renderData: { plan: null },
    },
    // {value, persistent: true}: the value is stored under the same rules
    {
      rule: 'a persistent wrapper stores its value',
      current: {},
      patch: { plan: { value: 'gold', persistent: true } },
      data: { plan: 'gold' },
      changedKeys: ['plan'],
    },
    {
      rule: 'a persistent wrapper with null deletes',
      current: { plan: 'gold' },
      patch: { plan: { value: null, persistent: true } },
      data: {},
      changedKeys: ['plan'],
    },
    {
      rule: 'a persistent wrapper with an empty string is ignored',
      current: { plan: 'gold' },
      patch: { plan: { value: '', persistent: true } },
      data: { plan: 'gold' },
      changedKeys: [],
    },
    // only exactly {value, persistent: <boolean>} is a wrapper
    {
      rule: 'an object with more keys than value and persistent is stored as sent',
      current: {},
      patch: { offer: { value: 1, persistent: false, note: 'x' } },
      data: { offer: { value: 1, persistent: false, note: 'x' } },
      changedKeys: ['offer'],
    },
    {
      rule: 'an object whose persistent is not a boolean is stored as sent',
      current: {},
      patch: { offer: { value: 1, persistent: 'false' } },
      data: { offer: { value: 1, persistent: 'false' } },
      changedKeys: ['offer'],
    },
  ];

  it.each(rows)('$rule', ({ current, patch, data, changedKeys, transient, renderData }) => {
    const result = applyDataPatch(current, patch);
    expect(result.data).toEqual(data);
    expect(result.changedKeys).toEqual(changedKeys);
    expect(result.transient).toEqual(transient ?? {});
    expect(result.renderData).toEqual(renderData ?? data);
  });
});

describe('data is patched: only the keys sent change', () => {
  it('keeps keys that are not sent', () => {
    const result = applyDataPatch({ plan: 'gold', city: 'Berlin', visits: 3 }, { visits: 4 });
    expect(result.data).toEqual({ plan: 'gold', city: 'Berlin', visits: 4 });
    expect(result.changedKeys).toEqual(['visits']);
  });

  it('applies every rule in one patch and reports changed keys sorted', () => {
    const result = applyDataPatch(
      { zeta: 1, alpha: 'a', keep: true, gone: 'x' },
      { zeta: 2, alpha: '', gone: null, beta: 'new', tmp: { value: 't', persistent: false } },
    );
    expect(result.data).toEqual({ zeta: 2, alpha: 'a', keep: true, beta: 'new' });
    expect(result.changedKeys).toEqual(['beta', 'gone', 'zeta']);
    expect(result.transient).toEqual({ tmp: 't' });
    expect(result.renderData).toEqual({ zeta: 2, alpha: 'a', keep: true, beta: 'new', tmp: 't' });
  });

  it('replaces a nested object sent for a key as a whole (no deep merge)', () => {
    const result = applyDataPatch({ profile: { tier: 'gold', since: 2020 } }, { profile: { tier: 'silver' } });
    expect(result.data).toEqual({ profile: { tier: 'silver' } });
    expect(result.changedKeys).toEqual(['profile']);
  });

  it('compares nested values deeply, ignoring key order', () => {
    const result = applyDataPatch(
      { profile: { tier: 'gold', tags: ['a', 'b'] } },
      { profile: { tags: ['a', 'b'], tier: 'gold' } },
    );
    expect(result.changedKeys).toEqual([]);
    expect(applyDataPatch({ tags: ['a', 'b'] }, { tags: ['b', 'a'] }).changedKeys).toEqual(['tags']);
  });

  it.each([
    ['undefined', undefined],
    ['an empty object', {}],
  ])('changes nothing for a patch that is %s', (_label, patch) => {
    const result = applyDataPatch({ plan: 'gold' }, patch);
    expect(result).toEqual({ data: { plan: 'gold' }, changedKeys: [], transient: {}, renderData: { plan: 'gold' } });
  });

  it('treats an undefined value as not sent', () => {
    expect(applyDataPatch({ plan: 'gold' }, { plan: undefined })).toEqual({
      data: { plan: 'gold' },
      changedKeys: [],
      transient: {},
      renderData: { plan: 'gold' },
    });
  });

  it('does not modify the stored object or the patch', () => {
    const current = { plan: 'gold', gone: 1 };
    const patch = { plan: 'silver', gone: null };
    applyDataPatch(current, patch);
    expect(current).toEqual({ plan: 'gold', gone: 1 });
    expect(patch).toEqual({ plan: 'silver', gone: null });
  });
});

describe('reserved keys are silently dropped from any data payload', () => {
  it('lists exactly the reserved keys of the spec', () => {
    expect([...RESERVED_DATA_KEYS].sort()).toEqual(
      ['email', 'id', 'manageUrl', 'subscribeUrl', 'svc_email', 'svc_id', 'unsubscribeUrl'].sort(),
    );
  });

  it.each(RESERVED_DATA_KEYS)('drops %s: not stored, not deleted, not rendered, no error', (key) => {
    const current = { plan: 'gold' };
    expect(applyDataPatch(current, { [key]: 'x', plan: 'silver' })).toEqual({
      data: { plan: 'silver' },
      changedKeys: ['plan'],
      transient: {},
      renderData: { plan: 'silver' },
    });
    expect(applyDataPatch(current, { [key]: { value: 'x', persistent: false } }).renderData).toEqual({ plan: 'gold' });
    expect(applyDataPatch(current, { [key]: { value: 'x', persistent: true } }).data).toEqual({ plan: 'gold' });
    expect(applyDataPatch({ ...current, [key]: 'legacy' }, { [key]: null }).data).toEqual({
      ...current,
      [key]: 'legacy',
    });
  });

  it('matches reserved keys exactly (case-sensitive): Email is an ordinary key', () => {
    expect(applyDataPatch({}, { Email: 'x' }).data).toEqual({ Email: 'x' });
  });

  it('drops __proto__ without touching any prototype', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "plan": "gold"}') as Record<string, unknown>;
    const result = applyDataPatch({}, patch);
    expect(result.data).toEqual({ plan: 'gold' });
    expect(Object.getPrototypeOf(result.data)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('locale is stored in data like any key', () => {
  it.each([
    ['stored', {}, { locale: 'de' }, { locale: 'de' }, ['locale']],
    ['replaced', { locale: 'de' }, { locale: 'fr' }, { locale: 'fr' }, ['locale']],
    ['deleted by null', { locale: 'de' }, { locale: null }, {}, ['locale']],
    ['kept on empty string', { locale: 'de' }, { locale: '' }, { locale: 'de' }, []],
  ])('locale is %s', (_label, current, patch, data, changedKeys) => {
    const result = applyDataPatch(current, patch);
    expect(result.data).toEqual(data);
    expect(result.changedKeys).toEqual(changedKeys);
  });
});

describe('nested objects are allowed and addressed with dotted paths', () => {
  it('stores a nested object whose leaves are addressed as data.profile.tier (filters) and profile.tier (templates)', () => {
    const { data } = applyDataPatch({ plan: 'gold' }, { profile: { tier: 'gold', address: { city: 'Berlin' } } });
    expect(data).toEqual({ plan: 'gold', profile: { tier: 'gold', address: { city: 'Berlin' } } });
    expect(flattenLeaves(data)).toEqual([
      ['data.plan', 'gold'],
      ['data.profile.tier', 'gold'],
      ['data.profile.address.city', 'Berlin'],
    ]);
    expect(flattenLeaves(data, '')).toContainEqual(['profile.tier', 'gold']);
  });
});

describe('applyDataPatch never throws and stores odd values as sent', () => {
  it.each<[string, unknown]>([
    ['an array', [1, 'two', { three: 3 }]],
    ['an empty array', []],
    ['an empty object', {}],
    ['a nested object containing null and empty strings', { a: null, b: '', c: { d: null } }],
    ['a deeply nested object', { a: { b: { c: { d: { e: [1, [2, [3]]] } } } } }],
    ['a very long string', 'x'.repeat(100_000)],
    ['a negative decimal', -0.000001],
  ])('stores %s as sent', (_label, value) => {
    const result = applyDataPatch({}, { odd: value });
    expect(result.data).toEqual({ odd: value });
    expect(result.changedKeys).toEqual(['odd']);
  });

  it.each<[string, unknown, unknown]>([
    ['a null patch', { plan: 'gold' }, null],
    ['an array patch', { plan: 'gold' }, ['a']],
    ['a string patch', { plan: 'gold' }, 'plan'],
  ])('ignores %s', (_label, current, patch) => {
    expect(applyDataPatch(current as Record<string, unknown>, patch as Record<string, unknown>).data).toEqual({
      plan: 'gold',
    });
  });

  it('treats a missing stored object as empty', () => {
    expect(applyDataPatch(null as unknown as Record<string, unknown>, { plan: 'gold' }).data).toEqual({ plan: 'gold' });
  });
});

describe('callers enforce MAX_DATA_BYTES with dataSize (JSON byte length)', () => {
  it('is 64 KiB', () => {
    expect(MAX_DATA_BYTES).toBe(65_536);
  });

  it.each<[string, unknown, number]>([
    ['an empty object', {}, 2],
    ['ASCII', { a: 'bc' }, 10],
    ['multi-byte UTF-8 counted in bytes', { a: 'ü€' }, 13],
    ['undefined', undefined, 0],
  ])('measures %s', (_label, data, bytes) => {
    expect(dataSize(data)).toBe(bytes);
  });

  it('reports an unserialisable object as infinitely large', () => {
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    expect(dataSize(circular)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('deepEqual compares JSON values structurally', () => {
  it.each<[unknown, unknown, boolean]>([
    [1, 1, true],
    [1, '1', false],
    [null, null, true],
    [null, {}, false],
    [[], {}, false],
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [[1, 2], [1, 2, 3], false],
  ])('deepEqual(%p, %p) is %p', (a, b, expected) => {
    expect(deepEqual(a, b)).toBe(expected);
  });
});
