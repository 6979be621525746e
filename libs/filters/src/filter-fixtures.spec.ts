import { matchContact } from './match-contact.js';
import { parseFilter } from './parse-filter.js';
import {
  FIXTURE_CONTACTS,
  FIXTURE_FIELD_TYPES,
  FIXTURE_NOW,
  FIXTURE_ROWS,
  fixtureSegments,
} from './filter-fixtures.spec-support.js';

describe('every operator against every field type, in memory (the shared fixture table)', () => {
  const ctx = { now: FIXTURE_NOW, fieldTypes: FIXTURE_FIELD_TYPES, segments: fixtureSegments() };

  it.each(FIXTURE_ROWS.map((r) => [r.rule, r] as const))('%s', (_rule, row) => {
    const filter = parseFilter(row.filter);
    const matched = FIXTURE_CONTACTS.filter((contact) => matchContact(filter, contact, ctx)).map((c) => c.id);
    expect(matched).toEqual(row.expected);
  });

  it('the table covers every operator', async () => {
    const { VALUE_OPERATORS, ACTIVITY_OPERATORS, SEGMENT_OPERATORS } = await import('./model.js');
    const used = new Set<string>();
    const walk = (node: { operator: string; conditions?: unknown[] }): void => {
      used.add(node.operator);
      node.conditions?.forEach((c) => walk(c as never));
    };
    FIXTURE_ROWS.forEach((r) => walk(r.filter));
    const missing = [...VALUE_OPERATORS, ...ACTIVITY_OPERATORS, ...SEGMENT_OPERATORS, 'AND', 'OR'].filter(
      (op) => !used.has(op),
    );
    expect(missing).toEqual([]);
  });
});
