import type { WorkflowStepType } from '@herald/contracts';
import type { FieldProblem } from '@herald/core';

/** The graph of a workflow as the rules see it (pure data: definitions, versions, the dry run). */
export interface GraphStep {
  id: string;
  type: WorkflowStepType;
  name: string;
  position: number;
  config: Record<string, unknown>;
}
export interface GraphTransition {
  id: string;
  fromStepId: string;
  toStepId: string;
  /** `''` for the single way on of an ordinary step. */
  branch: string;
}
export interface Graph {
  steps: GraphStep[];
  transitions: GraphTransition[];
}

/** The outgoing slots of a step type: named branches, the single unnamed one, or none (EXIT). */
export function branchesOf(type: WorkflowStepType): readonly string[] {
  if (type === 'CONDITION') return ['yes', 'no'];
  if (type === 'WAIT_FOR_EVENT') return ['event', 'timeout'];
  if (type === 'EXIT') return [];
  return [''];
}

export type TransitionProblem =
  { kind: 'invalid'; problems: FieldProblem[] } | { kind: 'conflict'; code: string; message: string };

/** Whether `to` can be reached from `from` by following transitions. */
export function reaches(graph: Graph, from: string, to: string): boolean {
  const out = new Map<string, string[]>();
  for (const t of graph.transitions) out.set(t.fromStepId, [...(out.get(t.fromStepId) ?? []), t.toStepId]);
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const s = stack.pop()!;
    if (s === to) return true;
    if (seen.has(s)) continue;
    seen.add(s);
    stack.push(...(out.get(s) ?? []));
  }
  return false;
}

/**
 * The rules of a new transition: both steps in the graph (a step of another workflow is not),
 * the branch fits the source's type (CONDITION: yes/no; WAIT_FOR_EVENT: event/timeout; any other:
 * none; EXIT: no way on), one transition per branch, and no cycle.
 */
export function checkTransition(
  graph: Graph,
  t: { fromStepId: string; toStepId: string; branch?: string | undefined },
): TransitionProblem | undefined {
  const from = graph.steps.find((s) => s.id === t.fromStepId);
  const to = graph.steps.find((s) => s.id === t.toStepId);
  const problems: FieldProblem[] = [];
  if (!from)
    problems.push({
      field: 'fromStepId',
      message: 'no step of this workflow has this id',
      code: 'STEP_NOT_IN_WORKFLOW',
    });
  if (!to)
    problems.push({ field: 'toStepId', message: 'no step of this workflow has this id', code: 'STEP_NOT_IN_WORKFLOW' });
  if (!from || !to) return { kind: 'invalid', problems };
  const branches = branchesOf(from.type);
  const branch = t.branch ?? '';
  if (branches.length === 0)
    return {
      kind: 'invalid',
      problems: [
        {
          field: 'fromStepId',
          message: 'an EXIT step ends the execution: it has no way on',
          code: 'TRANSITION_INVALID',
        },
      ],
    };
  if (!branches.includes(branch))
    return {
      kind: 'invalid',
      problems: [
        {
          field: 'branch',
          message:
            branches[0] === ''
              ? `a ${from.type} step has one way on: no branch`
              : `a ${from.type} step needs branch ${branches.join(' or ')}`,
          code: 'TRANSITION_BRANCH_INVALID',
        },
      ],
    };
  if (from.id === to.id)
    return {
      kind: 'invalid',
      problems: [{ field: 'toStepId', message: 'a step cannot lead to itself', code: 'TRANSITION_CYCLE' }],
    };
  if (graph.transitions.some((x) => x.fromStepId === from.id && x.branch === branch))
    return {
      kind: 'conflict',
      code: 'TRANSITION_EXISTS',
      message: branch
        ? `step ${from.name} already has a transition for branch ${branch}`
        : `step ${from.name} already has its outgoing transition`,
    };
  if (reaches(graph, to.id, from.id))
    return {
      kind: 'invalid',
      problems: [
        {
          field: 'toStepId',
          message: `this transition would close a cycle through ${to.name}`,
          code: 'TRANSITION_CYCLE',
        },
      ],
    };
  return undefined;
}

/** The step an execution starts at: the one step no transition leads to (the first by position if several). */
export function entryStep(graph: Graph): GraphStep | undefined {
  const targets = new Set(graph.transitions.map((t) => t.toStepId));
  return [...graph.steps]
    .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id))
    .find((s) => !targets.has(s.id));
}

/** The next step after `stepId` through `branch` (`''` for an ordinary step); undefined ends the execution. */
export function nextStepId(graph: Graph, stepId: string, branch: string): string | undefined {
  return graph.transitions.find((t) => t.fromStepId === stepId && t.branch === branch)?.toStepId;
}

/**
 * What enabling requires: a trigger (an event name), at least one step, every step reachable from
 * the entry step, and every branch of a CONDITION (yes, no) and a WAIT_FOR_EVENT (event, timeout)
 * continuing to a step (end a branch with an EXIT step). An ordinary step without a way on ends the
 * execution as COMPLETED. Each problem names the step.
 */
export function checkEnable(graph: Graph, eventName: string | null): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!eventName)
    problems.push({
      field: 'triggerConfig.eventName',
      message: 'a workflow needs a trigger event name to be enabled',
      code: 'WORKFLOW_NO_TRIGGER',
    });
  const entry = entryStep(graph);
  if (!entry) {
    problems.push({
      field: 'steps',
      message: 'a workflow needs at least one step to be enabled',
      code: 'WORKFLOW_EMPTY',
    });
    return problems;
  }
  for (const s of graph.steps) {
    if (s.id !== entry.id && !reaches(graph, entry.id, s.id))
      problems.push({
        field: `steps.${s.id}`,
        message: `step ${s.name} cannot be reached from the first step ${entry.name}`,
        code: 'STEP_UNREACHABLE',
      });
    const branches = branchesOf(s.type).filter((b) => b !== '');
    for (const b of branches)
      if (!graph.transitions.some((t) => t.fromStepId === s.id && t.branch === b))
        problems.push({
          field: `steps.${s.id}`,
          message: `step ${s.name} has no transition for its ${b} branch (connect it, or end it with an EXIT step)`,
          code: 'STEP_BRANCH_OPEN',
        });
  }
  return problems;
}

export type SplicePlan =
  | { ok: true; remove: string[]; retarget: { transitionId: string; toStepId: string }[] }
  | { ok: false; message: string };

/**
 * `DELETE …/steps/:id?splice=true`: every transition into the step is pointed at its successor and
 * the step's own transitions go. A step with two continuing branches cannot be spliced (which one
 * would the predecessors take?); with none, the incoming transitions are removed.
 */
export function splicePlan(graph: Graph, stepId: string): SplicePlan {
  const out = graph.transitions.filter((t) => t.fromStepId === stepId);
  const incoming = graph.transitions.filter((t) => t.toStepId === stepId);
  if (out.length > 1)
    return {
      ok: false,
      message: 'the step has two continuing branches: remove one transition first, or delete without splice',
    };
  const successor = out[0]?.toStepId;
  if (!successor) return { ok: true, remove: [...incoming, ...out].map((t) => t.id), retarget: [] };
  return {
    ok: true,
    remove: out.map((t) => t.id),
    retarget: incoming.map((t) => ({ transitionId: t.id, toStepId: successor })),
  };
}
