import {
  branchesOf,
  checkTransition,
  entryStep,
  graphProblems,
  splicePlan,
  type Graph,
  type GraphStep,
} from './graph.js';

const step = (id: string, type: GraphStep['type'], position = 0, config: Record<string, unknown> = {}): GraphStep => ({
  id,
  type,
  name: id.toUpperCase(),
  position,
  config,
});
const always = { operator: 'AND', conditions: [] };
const multi = (...ids: string[]) => ({ branches: ids.map((id) => ({ id, name: id, filter: always })) });
const graph = (steps: GraphStep[], edges: [string, string, string?][] = []): Graph => ({
  steps,
  transitions: edges.map(([from, to, branch], i) => ({
    id: `t${i}`,
    fromStepId: from,
    toStepId: to,
    branch: branch ?? '',
  })),
});

describe('workflow graph rules', () => {
  it('a CONDITION transition needs branch yes or no, one per branch', () => {
    const g = graph([step('c', 'CONDITION'), step('a', 'SEND_EMAIL', 1), step('b', 'EXIT', 2)], [['c', 'a', 'yes']]);
    expect(checkTransition(g, { fromStepId: 'c', toStepId: 'b' })).toMatchObject({
      kind: 'invalid',
      problems: [{ field: 'branch' }],
    });
    expect(checkTransition(g, { fromStepId: 'c', toStepId: 'b', branch: 'yes' })).toMatchObject({ kind: 'conflict' });
    expect(checkTransition(g, { fromStepId: 'c', toStepId: 'b', branch: 'no' })).toBeUndefined();
  });

  it('a WAIT_FOR_EVENT step has the outcomes event and timeout', () => {
    const g = graph([step('w', 'WAIT_FOR_EVENT', 0, { eventName: 'paid', timeout: 60 }), step('a', 'EXIT', 1)]);
    expect(checkTransition(g, { fromStepId: 'w', toStepId: 'a', branch: 'yes' })).toMatchObject({ kind: 'invalid' });
    expect(checkTransition(g, { fromStepId: 'w', toStepId: 'a', branch: 'timeout' })).toBeUndefined();
  });

  it('a WAIT_FOR_EVENT without a timeout has its event branch only: a transition tagged timeout is a field error where it was written', () => {
    const w = step('w', 'WAIT_FOR_EVENT', 0, { eventName: 'paid' });
    expect(branchesOf(w)).toEqual(['event']);
    const g = graph([w, step('a', 'EXIT', 1)]);
    expect(checkTransition(g, { fromStepId: 'w', toStepId: 'a', branch: 'timeout' }, 'condition.fallback')).toEqual({
      kind: 'invalid',
      problems: [
        {
          field: 'condition.fallback',
          code: 'TRANSITION_BRANCH_INVALID',
          message: expect.stringMatching(/W has no timeout/),
        },
      ],
    });
    expect(checkTransition(g, { fromStepId: 'w', toStepId: 'a' })).toBeUndefined();
  });

  it('any other step has at most one outgoing transition, without a branch', () => {
    const g = graph([step('s', 'SEND_EMAIL'), step('a', 'EXIT', 1), step('b', 'EXIT', 2)], [['s', 'a']]);
    expect(checkTransition(g, { fromStepId: 's', toStepId: 'b' })).toMatchObject({ kind: 'conflict' });
    expect(checkTransition(g, { fromStepId: 's', toStepId: 'b', branch: 'yes' })).toMatchObject({ kind: 'invalid' });
  });

  it('an EXIT step has no way on', () => {
    const g = graph([step('x', 'EXIT'), step('a', 'SEND_EMAIL', 1)]);
    expect(checkTransition(g, { fromStepId: 'x', toStepId: 'a' })).toMatchObject({ kind: 'invalid' });
  });

  it('refuses cycles, self-loops included', () => {
    const g = graph(
      [step('a', 'DELAY'), step('b', 'DELAY', 1), step('c', 'DELAY', 2)],
      [
        ['a', 'b'],
        ['b', 'c'],
      ],
    );
    expect(checkTransition(g, { fromStepId: 'c', toStepId: 'a' })).toMatchObject({
      kind: 'invalid',
      problems: [{ code: 'TRANSITION_CYCLE' }],
    });
    expect(checkTransition(g, { fromStepId: 'c', toStepId: 'c' })).toMatchObject({ kind: 'invalid' });
  });

  it('a step of another workflow (not in this graph) is refused', () => {
    const g = graph([step('a', 'DELAY')]);
    expect(checkTransition(g, { fromStepId: 'a', toStepId: 'elsewhere' })).toMatchObject({
      kind: 'invalid',
      problems: [{ field: 'toStepId' }],
    });
  });

  it('the graph problems (never a refusal): no trigger, no steps, unreachable steps and open CONDITION branches, each naming its step', () => {
    const ok = graph(
      [step('c', 'CONDITION'), step('y', 'SEND_EMAIL', 1), step('n', 'EXIT', 2)],
      [
        ['c', 'y', 'yes'],
        ['c', 'n', 'no'],
      ],
    );
    expect(graphProblems(ok, 'signup')).toEqual([]);
    expect(graphProblems(ok, null)).toMatchObject([{ code: 'WORKFLOW_NO_TRIGGER' }]);
    const open = graph([step('c', 'CONDITION'), step('y', 'SEND_EMAIL', 1)], [['c', 'y', 'yes']]);
    expect(graphProblems(open, 'signup')).toEqual([
      {
        stepId: 'c',
        code: 'STEP_BRANCH_OPEN',
        message: expect.stringMatching(/no branch: an execution taking it ends/),
      },
    ]);
    const orphan = graph([step('a', 'SEND_EMAIL'), step('b', 'SEND_EMAIL', 1)]);
    expect(graphProblems(orphan, 'signup')).toMatchObject([{ stepId: 'b', code: 'STEP_UNREACHABLE' }]);
    expect(graphProblems(graph([]), null)).toMatchObject([{ code: 'WORKFLOW_NO_TRIGGER' }, { code: 'WORKFLOW_EMPTY' }]);
  });

  it('a step without a way on is no problem: an ordinary step, a WAIT_FOR_EVENT with only its event branch, a multi-branch CONDITION with every slot taken', () => {
    const g = graph(
      [step('w', 'WAIT_FOR_EVENT'), step('m', 'CONDITION', 1, multi('pro', 'team')), step('s', 'SEND_EMAIL', 2)],
      [
        ['w', 'm', 'event'],
        ['m', 's', 'pro'],
      ],
    );
    expect(graphProblems(g, 'signup').map((p) => [p.stepId, p.code, p.message.match(/its (\S+) branch/)?.[1]])).toEqual(
      [
        ['m', 'STEP_BRANCH_OPEN', 'team'],
        ['m', 'STEP_BRANCH_OPEN', 'default'],
      ],
    );
  });

  it("a multi-branch CONDITION's slots are its branch ids and default; a two-way one's yes and no", () => {
    expect(branchesOf(step('m', 'CONDITION', 0, multi('a', 'b')))).toEqual(['a', 'b', 'default']);
    expect(branchesOf(step('c', 'CONDITION', 0, always))).toEqual(['yes', 'no']);
    const g = graph([step('m', 'CONDITION', 0, multi('a', 'b')), step('x', 'EXIT', 1)], [['m', 'x', 'a']]);
    expect(checkTransition(g, { fromStepId: 'm', toStepId: 'x', branch: 'yes' })).toMatchObject({
      kind: 'invalid',
      problems: [{ field: 'branch', code: 'TRANSITION_BRANCH_INVALID' }],
    });
    expect(checkTransition(g, { fromStepId: 'm', toStepId: 'x', branch: 'default' })).toBeUndefined();
    expect(checkTransition(g, { fromStepId: 'm', toStepId: 'x', branch: 'a' })).toMatchObject({ kind: 'conflict' });
  });

  it('an untagged transition from a WAIT_FOR_EVENT is its event branch; a refused branch is reported where it was written', () => {
    const g = graph([step('w', 'WAIT_FOR_EVENT'), step('x', 'EXIT', 1)], [['w', 'x']]);
    expect(checkTransition(graph(g.steps), { fromStepId: 'w', toStepId: 'x' })).toBeUndefined();
    g.transitions[0]!.branch = 'event';
    expect(checkTransition(g, { fromStepId: 'w', toStepId: 'x' })).toMatchObject({ kind: 'conflict' });
    expect(checkTransition(g, { fromStepId: 'w', toStepId: 'x', branch: 'yes' }, 'condition.branch')).toMatchObject({
      problems: [{ field: 'condition.branch' }],
    });
  });

  it('the entry is the step no transition leads to', () => {
    expect(entryStep(graph([step('b', 'EXIT', 0), step('a', 'DELAY', 1)], [['a', 'b']]))?.id).toBe('a');
  });

  it('splicing reconnects the predecessors to the successor; two continuing branches cannot be spliced', () => {
    const g = graph(
      [step('a', 'DELAY'), step('b', 'DELAY', 1), step('c', 'EXIT', 2)],
      [
        ['a', 'b'],
        ['b', 'c'],
      ],
    );
    expect(splicePlan(g, 'b')).toEqual({ ok: true, remove: ['t1'], retarget: [{ transitionId: 't0', toStepId: 'c' }] });
    const cond = graph(
      [step('c', 'CONDITION'), step('y', 'EXIT', 1), step('n', 'EXIT', 2)],
      [
        ['c', 'y', 'yes'],
        ['c', 'n', 'no'],
      ],
    );
    expect(splicePlan(cond, 'c')).toMatchObject({ ok: false });
  });
});
