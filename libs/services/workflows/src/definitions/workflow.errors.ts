import { conflictError, invalidInput, notFoundError, type FieldProblem } from '@herald/core';

/** Stable codes of workflows (docs/errors.md); integrators match on them, so never rename one. */
export const WorkflowErrorCode = {
  NotFound: 'WORKFLOW_NOT_FOUND',
  StepNotFound: 'WORKFLOW_STEP_NOT_FOUND',
  TransitionNotFound: 'WORKFLOW_TRANSITION_NOT_FOUND',
  ExecutionNotFound: 'WORKFLOW_EXECUTION_NOT_FOUND',
  /** DELETE /workflows/:id while an execution is RUNNING or WAITING. */
  Active: 'WORKFLOW_HAS_ACTIVE_EXECUTIONS',
  /** DELETE …/steps/:id?splice=true of a step with two continuing branches. */
  CannotSplice: 'WORKFLOW_STEP_CANNOT_SPLICE',
  TransitionExists: 'TRANSITION_EXISTS',
  /** An execution cannot start: re-entry refused, another active execution of the contact. */
  NotStarted: 'WORKFLOW_EXECUTION_NOT_STARTED',
  /** Cancelling an execution that has ended. */
  NotActive: 'WORKFLOW_EXECUTION_NOT_ACTIVE',
} as const;

export const WorkflowErrors = {
  notFound: (id: string) => notFoundError('Workflow', id, WorkflowErrorCode.NotFound),
  stepNotFound: (id: string) => notFoundError('Step', id, WorkflowErrorCode.StepNotFound),
  transitionNotFound: (id: string) => notFoundError('Transition', id, WorkflowErrorCode.TransitionNotFound),
  executionNotFound: (id: string) => notFoundError('Execution', id, WorkflowErrorCode.ExecutionNotFound),
  active: (n: number) =>
    conflictError(
      WorkflowErrorCode.Active,
      `The workflow has ${n} active execution(s)`,
      'Cancel them (POST /workflows/:id/executions/cancel-all) or wait for them to finish.',
    ),
  cannotSplice: (message: string) => conflictError(WorkflowErrorCode.CannotSplice, message),
  conflict: (code: string, message: string) => conflictError(code, message),
  notStarted: (message: string) => conflictError(WorkflowErrorCode.NotStarted, message),
  notActive: (id: string, status: string) =>
    conflictError(
      WorkflowErrorCode.NotActive,
      `Execution ${id} is ${status}: only a RUNNING or WAITING execution can be cancelled`,
    ),
  invalid: (problems: FieldProblem[], message = 'Validation failed') => invalidInput(problems, message),
  field: (field: string, message: string, code = 'VALIDATION_ERROR') => invalidInput([{ field, message, code }]),
};
