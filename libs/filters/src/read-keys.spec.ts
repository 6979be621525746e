import { matchContact, type FilterContact } from './match-contact.js';
import type { FilterNode } from './model.js';
import { parseFilter } from './parse-filter.js';
import {
  parseOrNull,
  RANDOM_FIELD_TYPES,
  RANDOM_NOW,
  Random,
  randomContact,
  randomFilter,
} from './random-filters.spec-support.js';
import {
  EVERYTHING,
  mayMatchEmpty,
  readKeysOf,
  readsAnyOf,
  touchedByContactUpdate,
  touchedByCreation,
  unionOfTouched,
} from './read-keys.js';

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

describe('a creation: from nothing to what the contact holds', () => {
  it('touches every built-in field and each key the contact holds', () => {
    expect(touchedByCreation(['data.plan', 'event.signup'])).toEqual(
      new Set(['email', 'subscribed', 'createdAt', 'updatedAt', 'data.plan', 'event.signup']),
    );
  });

  it('a filter on missing values matches a contact holding nothing; one needing a value or an event does not', () => {
    expect(mayMatchEmpty(f({ field: 'data.tier', operator: 'notExists' }), {})).toBe(true);
    expect(mayMatchEmpty(f({ field: 'event.o1', operator: 'notTriggered' }), {})).toBe(true);
    expect(mayMatchEmpty(f({ field: 'data.tier', operator: 'equals', value: 't1' }), {})).toBe(false);
    expect(mayMatchEmpty(f({ field: 'event.o1', operator: 'triggered' }), {})).toBe(false);
    expect(
      mayMatchEmpty(
        f({ field: 'email.opened', operator: 'countLessThan', value: 1, within: { amount: 3, unit: 'days' } }),
        {},
      ),
    ).toBe(true);
  });

  it('a filter reading a built-in field or a segment may always match (what it reads is not known empty)', () => {
    expect(mayMatchEmpty(f({ field: 'subscribed', operator: 'equals', value: true }), {})).toBe(true);
    expect(mayMatchEmpty(f({ field: 'segment.seg_static', operator: 'isMember' }), {})).toBe(true);
  });

  /** The keys a contact holds, in the vocabulary of `readKeysOf` (as the read model's query answers them). */
  const held = (c: FilterContact) => [
    ...Object.keys(c.data).map((k) => `data.${k}`),
    ...c.events.map((e) => `event.${e.name}`),
    ...c.emails.map((e) => `email.${e.kind}`),
  ];
  const namesSegment = (node: FilterNode): boolean =>
    node.kind === 'group' ? node.conditions.some(namesSegment) : node.kind === 'segment';

  it('a filter reading none of the keys a creation touched matches the new contact only if it may match a contact holding nothing (random filters × contacts)', () => {
    const r = new Random(4040);
    const contacts = Array.from({ length: 200 }, (_, i) => {
      const c = randomContact(r, `k${i}`);
      // fewer held keys, so that many filters read none of them
      return i % 2 === 0 ? { ...c, data: {}, emails: [], events: c.events.slice(0, 1) } : c;
    });
    let skipped = 0;
    let skippedMatching = 0;
    const wrong: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const filter = parseOrNull(randomFilter(r));
      if (!filter) continue;
      const ctx = { now: RANDOM_NOW, ...(i % 2 === 0 ? { fieldTypes: RANDOM_FIELD_TYPES } : {}) };
      const reads = readKeysOf(filter);
      const whenEmpty = mayMatchEmpty(filter, ctx);
      for (const contact of contacts) {
        if (readsAnyOf(reads, touchedByCreation(held(contact)))) continue;
        skipped++;
        // what it answers for the contact is what it answers for one holding nothing
        // (a filter naming a segment may match: its answer depends on the contact's stored memberships)
        const matches = matchContact(filter, contact, ctx);
        if (matches) skippedMatching++;
        const exact = !namesSegment(filter);
        if ((matches && !whenEmpty) || (exact && matches !== whenEmpty))
          if (wrong.length < 3) wrong.push(`${JSON.stringify(filter)} on ${JSON.stringify(contact)}`);
      }
    }
    expect(wrong).toEqual([]);
    // the property was exercised both ways
    expect(skipped).toBeGreaterThan(10_000);
    expect(skippedMatching).toBeGreaterThan(100);
  });
});
