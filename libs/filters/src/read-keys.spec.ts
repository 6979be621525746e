import type { FilterNode } from './model.js';
import { parseFilter } from './parse-filter.js';
import { EVERYTHING, readKeysOf, readsAnyOf, touchedByContactUpdate, unionOfTouched } from './read-keys.js';

const f = (...conditions: object[]) => parseFilter({ operator: 'AND', conditions }, 'filters');

describe('readKeysOf: the keys a filter reads', () => {
  it('names built-ins, data paths, tracked event names and engagement kinds, each once', () => {
    const filter = f(
      { field: 'email', operator: 'contains', value: 'x' },
      { field: 'subscribed', operator: 'equals', value: true },
      {
        operator: 'OR',
        conditions: [
          { field: 'data.profile.tier', operator: 'equals', value: 'gold' },
          { field: 'event.purchase', operator: 'triggeredWithin', value: 7, unit: 'days' },
          { field: 'email.opened', operator: 'countGreaterThan', value: 2 },
          { field: 'createdAt', operator: 'within', value: 3, unit: 'days' },
          { field: 'data.profile.tier', operator: 'exists' },
        ],
      },
    );
    expect([...readKeysOf(filter)].sort()).toEqual(
      ['createdAt', 'data.profile.tier', 'email', 'email.opened', 'event.purchase', 'subscribed'].sort(),
    );
  });

  it('a segment reference reads what the referenced segment reads, transitively', () => {
    const filters: Record<string, FilterNode> = {
      seg_a: f({ field: 'segment.seg_b', operator: 'isMember' }, { field: 'data.a', operator: 'exists' }),
      seg_b: f({ field: 'event.signup', operator: 'triggered' }),
    };
    const root = f({ field: 'segment.seg_a', operator: 'isNotMember' });
    expect([...readKeysOf(root, (id) => filters[id])].sort()).toEqual(['data.a', 'event.signup']);
  });

  it('a reference cycle is followed once and ends', () => {
    const filters: Record<string, FilterNode> = {
      seg_a: f({ field: 'segment.seg_b', operator: 'isMember' }, { field: 'data.a', operator: 'exists' }),
      seg_b: f({ field: 'segment.seg_a', operator: 'isMember' }, { field: 'data.b', operator: 'exists' }),
    };
    expect([...readKeysOf(filters.seg_a!, (id) => filters[id])].sort()).toEqual(['data.a', 'data.b']);
  });

  it('a static or unknown segment reference adds no key', () => {
    expect([...readKeysOf(f({ field: 'segment.seg_static', operator: 'isMember' }), () => undefined)]).toEqual([]);
  });
});

describe('readsAnyOf: a filter is re-evaluated only when the change touched a key it reads', () => {
  const reads = new Set(['data.b', 'event.purchase', 'email.clicked']);
  it('a change of another data key, event name or engagement kind does not reach it', () => {
    expect(readsAnyOf(reads, new Set(['data.a', 'updatedAt']))).toBe(false);
    expect(readsAnyOf(reads, new Set(['event.signup']))).toBe(false);
    expect(readsAnyOf(reads, new Set(['email.opened']))).toBe(false);
  });
  it('a change of a key it reads reaches it', () => {
    expect(readsAnyOf(reads, new Set(['data.a', 'data.b']))).toBe(true);
    expect(readsAnyOf(reads, new Set(['event.purchase']))).toBe(true);
    expect(readsAnyOf(reads, new Set(['email.clicked']))).toBe(true);
  });
  it('data paths meet their prefixes and extensions, not their siblings', () => {
    expect(readsAnyOf(new Set(['data.profile.tier']), new Set(['data.profile']))).toBe(true);
    expect(readsAnyOf(new Set(['data.profile']), new Set(['data.profile.tier']))).toBe(true);
    expect(readsAnyOf(new Set(['data.profile.tier']), new Set(['data.profiles']))).toBe(false);
  });
  it('a change whose keys are unknown reaches every filter, even one reading nothing', () => {
    expect(readsAnyOf(new Set(), EVERYTHING)).toBe(true);
  });
});

describe('touched keys of changes', () => {
  it('contact.updated touches its changed keys and updatedAt', () => {
    expect(touchedByContactUpdate(['data.plan', 'subscribed'])).toEqual(
      new Set(['data.plan', 'subscribed', 'updatedAt']),
    );
  });
  it('contact.updated without changedKeys, or with a key outside the vocabulary, touches everything', () => {
    expect(touchedByContactUpdate(undefined)).toBe(EVERYTHING);
    expect(touchedByContactUpdate([])).toBe(EVERYTHING);
    expect(touchedByContactUpdate(['plan'])).toBe(EVERYTHING);
    expect(touchedByContactUpdate(['data.'])).toBe(EVERYTHING);
  });
  it('the union of changes is everything as soon as one of them is', () => {
    expect(unionOfTouched([new Set(['data.a']), new Set(['event.x'])])).toEqual(new Set(['data.a', 'event.x']));
    expect(unionOfTouched([new Set(['data.a']), EVERYTHING])).toBe(EVERYTHING);
  });
});
