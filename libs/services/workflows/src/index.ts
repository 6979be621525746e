export * from './workflows.module.js';
export * from './consumer.js';
// a step's effects with its contacts client (test/integration: UPDATE_CONTACT applied once per step run)
export { StepEffects, type StepTask } from './runtime/step-effects.js';
export { ContactsClient, type SendingClient } from './clients/internal-clients.js';
export type { WorkflowsSettings } from './workflows.settings.js';
export type { WorkflowExecution, WorkflowStepRun } from './executions/execution.entity.js';
