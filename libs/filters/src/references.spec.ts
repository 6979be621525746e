import { parseFilter } from './parse-filter.js';
import { referencesOf } from './references.js';

describe('referencesOf lists what a filter refers to, for the usage endpoints', () => {
  it('fields, event names and segment ids, each once, in order of appearance', () => {
    const filter = parseFilter({
      operator: 'OR',
      conditions: [
        { field: 'data.plan', operator: 'equals', value: 'pro' },
        { field: 'event.purchase', operator: 'triggered' },
        { field: 'email.opened', operator: 'triggered' },
        {
          operator: 'AND',
          conditions: [
            { field: 'email', operator: 'contains', value: 'x' },
            { field: 'data.plan', operator: 'exists' },
            { field: 'data.profile.tier', operator: 'exists' },
            { field: 'segment.seg_1', operator: 'isMember' },
            { field: 'event.signup', operator: 'countEquals', value: 0 },
            { field: 'event.purchase', operator: 'notTriggered' },
          ],
        },
      ],
    });
    expect(referencesOf(filter)).toEqual({
      fields: ['data.plan', 'email', 'data.profile.tier'],
      events: ['purchase', 'signup'],
      segments: ['seg_1'],
    });
  });
});
