import { dataObjectProblem, DATA_LIMITS } from './data-limits.js';
import { applyDataPatch, MAX_DATA_BYTES } from './data-patch.js';

const nested = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
};

describe('the documented limits of the data object', () => {
  it('accepts data within every limit', () => {
    expect(dataObjectProblem({ plan: 'gold', profile: { tier: 'x', tags: ['a', 'b'] }, visits: 3 })).toBeUndefined();
    expect(dataObjectProblem(nested(DATA_LIMITS.maxDepth))).toBeUndefined();
  });

  it.each<[string, () => unknown, string, string]>([
    [
      'too many keys',
      () => Object.fromEntries(Array.from({ length: DATA_LIMITS.maxKeys + 1 }, (_, i) => [`k${i}`, i])),
      'data',
      'maxKeys',
    ],
    ['nesting too deep', () => nested(DATA_LIMITS.maxDepth + 1), 'data.a.a.a.a.a.a.a.a.a', 'maxDepth'],
    ['a key too long', () => ({ ['k'.repeat(DATA_LIMITS.maxKeyLength + 1)]: 1 }), 'data', 'maxKeyLength'],
    ['a value too long', () => ({ bio: 'x'.repeat(DATA_LIMITS.maxStringLength + 1) }), 'data.bio', 'maxStringLength'],
    [
      'an array too long',
      () => ({ tags: Array.from({ length: DATA_LIMITS.maxItems + 1 }, () => 1) }),
      'data.tags',
      'maxItems',
    ],
    [
      'too many values',
      () => ({ a: Array.from({ length: 10 }, () => Array.from({ length: 600 }, () => 1)) }),
      'data.a',
      'maxValues',
    ],
  ])('refuses %s, naming the path and the limit', (_label, data, field, limit) => {
    const problem = dataObjectProblem(data());
    expect(problem).toMatchObject({ code: 'too_big' });
    expect(problem!.field.startsWith(field)).toBe(true);
    expect(problem!.message).toContain(limit);
  });

  it('refuses more than MAX_DATA_BYTES as JSON', () => {
    const data = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'x'.repeat(MAX_DATA_BYTES / 8)]));
    expect(dataObjectProblem(data)).toMatchObject({ field: 'data', code: 'too_big' });
  });

  it.each([
    ['a NUL in a value', { note: 'a\u0000b' }, 'data.note'],
    ['a lone surrogate in a nested value', { p: { q: '\ud800' } }, 'data.p.q'],
    ['a NUL in a key', { 'a\u0000': 1 }, 'data.a\u0000'],
  ])('refuses text PostgreSQL cannot store: %s', (_label, data, field) => {
    expect(dataObjectProblem(data)).toMatchObject({ field, code: 'invalid_string' });
  });

  it('walks 10,000 levels of nesting without overflowing the stack and stops at the first limit passed', () => {
    const deep = nested(10_000);
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    expect(dataObjectProblem(deep)?.message).toContain('maxDepth');
    expect(dataObjectProblem(wide)?.message).toContain('maxKeys');
  });
});

describe('keys dropped for safety are dropped on every write path', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('drops %s', (key) => {
    const patch = JSON.parse(`{"${key}": "x", "plan": "gold"}`) as Record<string, unknown>;
    expect(applyDataPatch({}, patch).data).toEqual({ plan: 'gold' });
  });
});
