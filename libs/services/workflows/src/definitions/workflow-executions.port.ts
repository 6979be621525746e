import type { EntityManager } from 'typeorm';

/**
 * What deleting a workflow asks of its executions, which the executions feature keeps (its
 * `ExecutionsStore`, bound to this class in the module): definitions never import executions.
 */
export abstract class WorkflowExecutionsPort {
  /** How many of the workflow's executions are RUNNING or WAITING. */
  abstract activeCount(m: EntityManager, workflowId: string): Promise<number>;
  /** Deletes the workflow's step runs, executions and entries, in the caller's transaction. */
  abstract deleteOf(m: EntityManager, workflowId: string): Promise<void>;
}
