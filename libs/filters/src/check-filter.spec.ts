import { DomainError } from '@herald/core';
import { checkFilter, type CheckContext } from './check-filter.js';
import { matchContact } from './match-contact.js';
import type { SegmentReference } from './model.js';
import { parseFilter } from './parse-filter.js';

const one = (condition: unknown) => parseFilter({ operator: 'AND', conditions: [condition] });

function problems(raw: unknown, ctx: CheckContext): string[] {
  try {
    checkFilter(parseFilter(raw), ctx);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    expect(err.kind).toBe('invalid');
    return (err.details.errors ?? []).map((e) => `${e.field} ${e.code}`);
  }
  return [];
}

describe('checkFilter: what needs the project is refused when a filter is written', () => {
  const refs: Record<string, SegmentReference> = {
    stored: { kind: 'stored' },
    pro: { kind: 'dynamic', filter: one({ field: 'data.plan', operator: 'equals', value: 'pro' }) },
    refersToA: { kind: 'dynamic', filter: one({ field: 'segment.a', operator: 'isMember' }) },
    a: { kind: 'dynamic', filter: one({ field: 'segment.refersToA', operator: 'isMember' }) },
    usesMissing: { kind: 'dynamic', filter: one({ field: 'segment.gone', operator: 'isMember' }) },
  };
  const segments = (id: string) => refs[id];

  it('a segment the project does not have (another project’s included) is a 422 on the field', () => {
    expect(
      problems(
        {
          operator: 'AND',
          conditions: [
            { field: 'segment.stored', operator: 'isMember' },
            { field: 'segment.seg_of_other_project', operator: 'isNotMember' },
          ],
        },
        { segments },
      ),
    ).toEqual(['filters.conditions[1].field FILTER_SEGMENT_UNKNOWN']);
  });

  it('a reference cycle through inlined segments is a 422 on the referencing condition', () => {
    expect(
      problems({ operator: 'OR', conditions: [{ field: 'segment.a', operator: 'isMember' }] }, { segments }),
    ).toEqual(['filters.conditions[0].field FILTER_SEGMENT_CYCLE']);
  });

  it('a segment referring to itself is a cycle', () => {
    expect(
      problems(
        { operator: 'AND', conditions: [{ field: 'segment.pro', operator: 'isMember' }] },
        { segments, selfId: 'pro' },
      ),
    ).toEqual(['filters.conditions[0].field FILTER_SEGMENT_CYCLE']);
    expect(
      problems(
        { operator: 'AND', conditions: [{ field: 'segment.pro', operator: 'isMember' }] },
        { segments, selfId: 'x' },
      ),
    ).toEqual([]);
  });

  it('an unknown segment deeper in the references is reported on the condition that leads there', () => {
    expect(
      problems({ operator: 'AND', conditions: [{ field: 'segment.usesMissing', operator: 'isMember' }] }, { segments }),
    ).toEqual(['filters.conditions[0].field FILTER_SEGMENT_UNKNOWN']);
  });

  it('a value that does not fit the registered type is a 422 on the value', () => {
    const fieldTypes = { 'data.age': 'number', 'data.plan': 'string', 'data.day': 'date' } as const;
    expect(
      problems(
        {
          operator: 'AND',
          conditions: [
            { field: 'data.age', operator: 'equals', value: '36' },
            { field: 'data.age', operator: 'gt', value: 3 },
            { field: 'data.plan', operator: 'gte', value: 3 },
            { field: 'data.day', operator: 'in', value: ['2024-01-01', '2024-01-02'] },
            { field: 'data.plan', operator: 'within', value: 3 },
            { field: 'data.age', operator: 'contains', value: '3' },
            { field: 'data.unregistered', operator: 'gt', value: 3 },
          ],
        },
        { segments, fieldTypes },
      ),
    ).toEqual([
      'filters.conditions[0].value FILTER_VALUE_TYPE',
      'filters.conditions[2].value FILTER_VALUE_TYPE',
      'filters.conditions[4].value FILTER_VALUE_TYPE',
      'filters.conditions[5].value FILTER_VALUE_TYPE',
    ]);
  });

  it('at evaluation the same findings never throw: the condition matches nobody', () => {
    const contact = {
      id: 'c',
      email: 'a@b.co',
      subscribed: true,
      createdAt: new Date(),
      updatedAt: new Date(),
      data: { age: '36' },
      events: [],
      emails: [],
      segmentIds: new Set<string>(),
    };
    const ctx = { now: new Date(), segments, fieldTypes: { 'data.age': 'number' as const } };
    expect(matchContact(one({ field: 'segment.nope', operator: 'isMember' }), contact, ctx)).toBe(false);
    expect(matchContact(one({ field: 'segment.a', operator: 'isMember' }), contact, ctx)).toBe(false);
    expect(matchContact(one({ field: 'data.age', operator: 'equals', value: '36' }), contact, ctx)).toBe(false);
    expect(matchContact(one({ field: 'data.age', operator: 'notEquals', value: '36' }), contact, ctx)).toBe(true);
  });

  it('inlining is bounded: references that expand past 1000 conditions are refused', () => {
    // each level references the one below twice: 2^11 conditions once inlined
    const levels: Record<string, SegmentReference> = {
      l0: { kind: 'dynamic', filter: one({ field: 'email', operator: 'exists' }) },
    };
    for (let i = 1; i <= 11; i++)
      levels[`l${i}`] = {
        kind: 'dynamic',
        filter: parseFilter({
          operator: 'OR',
          conditions: [
            { field: `segment.l${i - 1}`, operator: 'isMember' },
            { field: `segment.l${i - 1}`, operator: 'isNotMember' },
          ],
        }),
      };
    expect(
      problems(
        { operator: 'AND', conditions: [{ field: 'segment.l8', operator: 'isMember' }] },
        { segments: (id) => levels[id] },
      ),
    ).toEqual([]);
    expect(
      problems(
        { operator: 'AND', conditions: [{ field: 'segment.l11', operator: 'isMember' }] },
        { segments: (id) => levels[id] },
      ),
    ).toEqual(['filters FILTER_TOO_LARGE']);
  });
});
