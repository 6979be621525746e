import { compileFilter, DEFAULT_FILTER_SQL_SCHEMA } from './compile-sql.js';
import { parseFilter } from './parse-filter.js';

const now = new Date('2024-06-15T12:00:00Z');
const HOSTILE = `x'); DROP TABLE segment_contacts; -- "$1 \\ %_ é`;

describe('compileFilter: values are bind parameters, never SQL text', () => {
  it('no value, key, event name or segment id of a filter appears in the statement', () => {
    const filter = parseFilter({
      operator: 'OR',
      conditions: [
        { field: `data.${HOSTILE}`, operator: 'equals', value: HOSTILE },
        { field: `data.a.${HOSTILE}`, operator: 'contains', value: HOSTILE },
        { field: `data.${HOSTILE}`, operator: 'gt', value: 1 },
        { field: `data.${HOSTILE}`, operator: 'in', value: [HOSTILE, 'b'] },
        { field: 'email', operator: 'startsWith', value: HOSTILE },
        { field: `event.${HOSTILE}`, operator: 'countGreaterThan', value: 2 },
        { field: `segment.${HOSTILE}`, operator: 'isMember' },
      ],
    });
    const { sql, params } = compileFilter(filter, {
      now,
      projectId: HOSTILE,
      segments: () => ({ kind: 'stored' }),
    });
    for (const fragment of ['DROP', "x'", 'é', '\\ %']) expect(sql).not.toContain(fragment);
    expect(params).toContain(HOSTILE);
    expect(params).toContainEqual([HOSTILE]);
  });

  it('numbers parameters after the caller’s and binds now once', () => {
    const filter = parseFilter({
      operator: 'AND',
      conditions: [
        { field: 'createdAt', operator: 'within', value: 1, unit: 'days' },
        { field: 'event.buy', operator: 'triggeredWithin', value: 2, unit: 'hours' },
      ],
    });
    const { sql, params } = compileFilter(filter, { now, projectId: 'p', params: ['first', 'second'] });
    expect(params.slice(0, 3)).toEqual(['first', 'second', 'p']);
    expect(sql.startsWith('(c.project_id = $3::text AND')).toBe(true);
    expect(params.filter((p) => p === now.toISOString())).toHaveLength(1);
  });

  it('takes table and column names from the schema description, and refuses names that are not plain identifiers', () => {
    const schema = {
      ...DEFAULT_FILTER_SQL_SCHEMA,
      contacts: { ...DEFAULT_FILTER_SQL_SCHEMA.contacts, table: 'segments.contacts', data: 'attributes' },
    };
    const filter = parseFilter({ operator: 'AND', conditions: [{ field: 'data.a', operator: 'exists' }] });
    expect(compileFilter(filter, { now, projectId: 'p', schema, alias: 'sc' }).sql).toContain('sc.attributes #>');
    expect(() =>
      compileFilter(filter, {
        now,
        projectId: 'p',
        schema: { ...schema, contacts: { ...schema.contacts, data: 'data; DROP' } },
      }),
    ).toThrow(/not a plain identifier/);
  });
});
