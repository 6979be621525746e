import { checkEnable, checkTransition, entryStep, splicePlan, type Graph, type GraphStep } from './graph.js';

const step = (id: string, type: GraphStep['type'], position = 0): GraphStep => ({
  id,
  type,
  name: id.toUpperCase(),
  position,
  config: {},
});
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
    const g = graph([step('w', 'WAIT_FOR_EVENT'), step('a', 'EXIT', 1)]);
    expect(checkTransition(g, { fromStepId: 'w', toStepId: 'a', branch: 'yes' })).toMatchObject({ kind: 'invalid' });
    expect(checkTransition(g, { fromStepId: 'w', toStepId: 'a', branch: 'timeout' })).toBeUndefined();
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

  it('enabling needs a trigger, reachable steps and every branch continuing, naming the step', () => {
    const ok = graph(
      [step('c', 'CONDITION'), step('y', 'SEND_EMAIL', 1), step('n', 'EXIT', 2)],
      [
        ['c', 'y', 'yes'],
        ['c', 'n', 'no'],
      ],
    );
    expect(checkEnable(ok, 'signup')).toEqual([]);
    expect(checkEnable(ok, null)).toMatchObject([{ code: 'WORKFLOW_NO_TRIGGER' }]);
    const open = graph([step('c', 'CONDITION'), step('y', 'SEND_EMAIL', 1)], [['c', 'y', 'yes']]);
    expect(checkEnable(open, 'signup')).toMatchObject([{ field: 'steps.c', code: 'STEP_BRANCH_OPEN' }]);
    const orphan = graph([step('a', 'SEND_EMAIL'), step('b', 'SEND_EMAIL', 1)]);
    expect(checkEnable(orphan, 'signup')).toMatchObject([{ field: 'steps.b', code: 'STEP_UNREACHABLE' }]);
    expect(checkEnable(graph([]), 'signup')).toMatchObject([{ code: 'WORKFLOW_EMPTY' }]);
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
