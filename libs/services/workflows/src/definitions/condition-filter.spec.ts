import { parseCondition, unknownSegments } from './condition-filter.js';

describe('CONDITION segment references', () => {
  it("a segment.<id> the project does not have (another project's included) is a FILTER_SEGMENT_UNKNOWN on its field, nested groups included; the project's own are not", () => {
    const filter = parseCondition({
      operator: 'OR',
      conditions: [
        { field: 'segment.seg_mine', operator: 'isMember' },
        {
          operator: 'AND',
          conditions: [
            { field: 'event.plan', operator: 'equals', value: 'pro' },
            { field: 'segment.seg_theirs', operator: 'isNotMember' },
          ],
        },
      ],
    });
    expect(unknownSegments(filter, new Set(['seg_mine']))).toEqual([
      {
        field: 'config.conditions[1].conditions[1].field',
        code: 'FILTER_SEGMENT_UNKNOWN',
        message: 'segment seg_theirs does not exist in this project',
      },
    ]);
    expect(unknownSegments(filter, new Set(['seg_mine', 'seg_theirs']))).toEqual([]);
  });
});
