import type { Verdict } from './oracle.js';
import { formatTable, rowFrom } from './report.js';

const clean: Verdict = { acknowledged: 10, lost: [], duplicated: [], inDoubt: [], stuck: [] };

describe("the fault suite's table", () => {
  it('a scenario holds its invariant when nothing was lost, stuck or duplicated and it recovered', () => {
    expect(rowFrom('kill -9 sending', clean, { recoveryMs: 5000, errorRate: 0.1 }).passed).toBe(true);
    expect(rowFrom('kill -9 sending', clean, { recoveryMs: null, errorRate: 0.1 }).passed).toBe(false);
  });

  it('a stuck email counts as lost, and names itself in the note', () => {
    const row = rowFrom('kill -9 sending', { ...clean, stuck: ['em_1'] }, { recoveryMs: 1, errorRate: 0 });
    expect(row).toMatchObject({ lost: 1, passed: false, note: 'email em_1 stuck' });
  });

  it("a scenario's own losses and duplicates add to the oracle's", () => {
    const row = rowFrom('import crash', clean, {}, { lost: 2, duplicated: 1 });
    expect(row).toMatchObject({ lost: 2, duplicated: 1, passed: false });
  });

  it('prints one line per scenario under the header, unmeasured cells as a dash', () => {
    const table = formatTable([
      rowFrom('kill -9 gateway', clean, { recoveryMs: 7700, errorRate: 0.294 }),
      rowFrom('campaign', clean, {}),
    ]).split('\n');
    expect(table).toHaveLength(4);
    expect(table[0]).toMatch(/^scenario\s+acknowledged\s+lost\s+duplicated\s+in doubt\s+recovery/);
    expect(table[2]).toMatch(/^kill -9 gateway\s+10\s+0\s+0\s+0\s+7\.7 s\s+29\.4 %\s+held$/);
    expect(table[3]).toMatch(/^campaign\s+10\s+0\s+0\s+0\s+-\s+-\s+held$/);
  });
});
