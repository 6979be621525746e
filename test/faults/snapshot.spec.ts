import { diffSnapshots, type Snapshot } from './snapshot.js';

const picture = (rows: Record<string, string[]>): Snapshot => new Map(Object.entries(rows));

describe("the full replay's picture of the state", () => {
  it('two pictures with the same rows in every table do not differ', () => {
    const rows = { 'analytics.event_counts': ['{"count": 3}'], 'sending.emails': ['{"id": "em_1"}', '{"id": "em_2"}'] };
    expect(diffSnapshots(picture(rows), picture(rows))).toEqual([]);
  });

  it('a row applied twice (a second execution, an activity item again) shows as added', () => {
    const before = picture({ 'workflows.workflow_executions': ['{"id": "wx_1"}'] });
    const after = picture({ 'workflows.workflow_executions': ['{"id": "wx_1"}', '{"id": "wx_1"}'] });
    expect(diffSnapshots(before, after)).toEqual([
      { table: 'workflows.workflow_executions', before: 1, after: 2, gone: [], added: ['{"id": "wx_1"}'] },
    ]);
  });

  it('a counter counted again shows as its old row gone and its new row added', () => {
    const before = picture({ 'analytics.event_counts': ['{"count": 3}'] });
    const after = picture({ 'analytics.event_counts': ['{"count": 4}'] });
    expect(diffSnapshots(before, after)).toMatchObject([{ gone: ['{"count": 3}'], added: ['{"count": 4}'] }]);
  });

  it('a table only one picture has differs by all its rows', () => {
    expect(diffSnapshots(picture({}), picture({ 'webhooks.deliveries': ['{"id": 1}'] }))).toMatchObject([
      { table: 'webhooks.deliveries', before: 0, after: 1, added: ['{"id": 1}'] },
    ]);
  });
});
