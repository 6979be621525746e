import type { WorkflowStepType } from '@herald/contracts';
import type { FieldProblem } from '@herald/core';
import { conditionSlots } from './condition-step.js';
import { hasTimeout } from './step-config.js';

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

/**
 * The outgoing slots of a step: a CONDITION's yes/no, or its branch ids and `default` (multi-branch);
 * a WAIT_FOR_EVENT's event/timeout (event only without a timeout: it never times out); none for an
 * EXIT; the single unnamed one (`''`) for any other.
 */
export function branchesOf(step: Pick<GraphStep, 'type' | 'config'>): readonly string[] {
  if (step.type === 'CONDITION') return conditionSlots(step.config);
  if (step.type === 'WAIT_FOR_EVENT') return hasTimeout(step.config) ? ['event', 'timeout'] : ['event'];
  if (step.type === 'EXIT') return [];
  return [''];
}

/** The branch a transition takes when none is given: a WAIT_FOR_EVENT's `event` (as Plunk's untagged one), else the single way on. */
export const branchOrDefault = (from: Pick<GraphStep, 'type'>, branch: string | undefined): string =>
  branch ?? (from.type === 'WAIT_FOR_EVENT' ? 'event' : '');

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
 * the branch is one of the source's slots (CONDITION: yes/no, or its branch ids and default;
 * WAIT_FOR_EVENT: event/timeout, event when none is given, no timeout branch on one without a
 * timeout; any other: none; EXIT: no way on), one
 * transition per branch, and no cycle. `branchField` is where the caller wrote the branch.
 */
export function checkTransition(
  graph: Graph,
  t: { fromStepId: string; toStepId: string; branch?: string | undefined },
  branchField = 'branch',
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
  const branches = branchesOf(from);
  const branch = branchOrDefault(from, t.branch);
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
          field: branchField,
          message:
            branches[0] === ''
              ? `a ${from.type} step has one way on: no branch`
              : from.type === 'WAIT_FOR_EVENT' && branch === 'timeout'
                ? `step ${from.name} has no timeout: it waits for its event with no deadline, so it has no timeout branch (give it a timeout first)`
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

/** A warning about a workflow's graph (`GET /workflows/:id`): it never stops enabling or editing. */
export interface GraphProblem {
  stepId?: string;
  code: 'WORKFLOW_NO_TRIGGER' | 'WORKFLOW_EMPTY' | 'STEP_UNREACHABLE' | 'STEP_BRANCH_OPEN';
  message: string;
}

/**
 * What a dashboard should warn about, computed from the graph alone: no trigger event name (nothing
 * starts it), no steps, steps the entry step cannot reach (they never run), and CONDITION branches
 * without a transition (an execution taking one ends there, COMPLETED). None of them refuses
 * enabling (`PATCH /workflows/:id {enabled}` sets enabled as sent) nor an edit; a step without a
 * way on for the way it took ends the execution there, in the runtime and the dry run alike.
 */
export function graphProblems(graph: Graph, eventName: string | null): GraphProblem[] {
  const problems: GraphProblem[] = [];
  if (!eventName)
    problems.push({
      code: 'WORKFLOW_NO_TRIGGER',
      message: 'the workflow has no trigger event name: no event starts it',
    });
  const entry = entryStep(graph);
  if (!entry) {
    problems.push({ code: 'WORKFLOW_EMPTY', message: 'the workflow has no steps: an execution has nothing to run' });
    return problems;
  }
  for (const s of graph.steps) {
    if (s.id !== entry.id && !reaches(graph, entry.id, s.id))
      problems.push({
        stepId: s.id,
        code: 'STEP_UNREACHABLE',
        message: `step ${s.name} cannot be reached from the first step ${entry.name}: it never runs`,
      });
    if (s.type !== 'CONDITION') continue;
    for (const b of branchesOf(s))
      if (!graph.transitions.some((t) => t.fromStepId === s.id && t.branch === b))
        problems.push({
          stepId: s.id,
          code: 'STEP_BRANCH_OPEN',
          message: `step ${s.name} has no transition for its ${b} branch: an execution taking it ends there`,
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
