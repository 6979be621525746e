import { graphProblems, type Graph, type GraphProblem, type GraphStep, type GraphTransition } from './graph.js';
import type { Workflow, WorkflowStep, WorkflowTransition } from './workflow.entity.js';

export interface StepView {
  id: string;
  workflowId: string;
  type: string;
  name: string;
  /** As it was written: the order (an integer), or the canvas coordinates `{x, y}`. */
  position: number | { x: number; y: number };
  config: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface TransitionView {
  id: string;
  workflowId: string;
  fromStepId: string;
  toStepId: string;
  branch: string | null;
}

export interface WorkflowView {
  id: string;
  name: string;
  description: string | null;
  triggerType: 'EVENT';
  triggerConfig: Record<string, unknown>;
  enabled: boolean;
  allowReentry: boolean;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  steps?: StepView[];
  transitions?: TransitionView[];
  /** What a dashboard should warn about (graph.ts `graphProblems`); with the steps and transitions. */
  problems?: GraphProblem[];
}

export const stepView = (s: WorkflowStep): StepView => ({
  id: s.id,
  workflowId: s.workflowId,
  type: s.type,
  name: s.name,
  position: s.coordinates ?? s.position,
  config: s.config,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

export const transitionView = (t: WorkflowTransition): TransitionView => ({
  id: t.id,
  workflowId: t.workflowId,
  fromStepId: t.fromStepId,
  toStepId: t.toStepId,
  branch: t.branch || null,
});

export function workflowView(
  w: Workflow,
  graph?: { steps: WorkflowStep[]; transitions: WorkflowTransition[] },
): WorkflowView {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    triggerType: w.triggerType,
    triggerConfig: w.triggerConfig,
    enabled: w.enabled,
    allowReentry: w.allowReentry,
    version: w.graphVersion,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    ...(graph
      ? {
          steps: graph.steps.map(stepView),
          transitions: graph.transitions.map(transitionView),
          problems: graphProblems(toGraph(graph.steps, graph.transitions), w.eventName),
        }
      : {}),
  };
}

export const toGraph = (steps: WorkflowStep[], transitions: WorkflowTransition[]): Graph => ({
  steps: steps.map((s): GraphStep => ({
    id: s.id,
    type: s.type,
    name: s.name,
    position: s.position,
    config: s.config,
  })),
  transitions: transitions.map((t): GraphTransition => ({
    id: t.id,
    fromStepId: t.fromStepId,
    toStepId: t.toStepId,
    branch: t.branch,
  })),
});
