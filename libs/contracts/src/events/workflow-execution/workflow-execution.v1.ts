import { IsIn, IsISO8601, IsObject, IsOptional, IsString } from 'class-validator';
import { IsEmailAddress } from '../../email-address.js';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

export const WORKFLOW_STEP_TYPES = [
  'SEND_EMAIL',
  'DELAY',
  'WAIT_FOR_EVENT',
  'CONDITION',
  'WEBHOOK',
  'UPDATE_CONTACT',
  'EXIT',
] as const;
export type WorkflowStepType = (typeof WORKFLOW_STEP_TYPES)[number];

export const WORKFLOW_EXECUTION_STATUSES = [
  'RUNNING',
  'WAITING',
  'COMPLETED',
  'EXITED',
  'FAILED',
  'CANCELLED',
] as const;
export type WorkflowExecutionStatus = (typeof WORKFLOW_EXECUTION_STATUSES)[number];

/**
 * Payload of every `workflow.*` topic: one step of one contact's execution (docs/workflows.md).
 * - `workflow.started`: an execution began (`trigger`: the event name that started it, or `manual`);
 * - `workflow.step.completed`: a step ran; `outcome` says how (`sent`, `skipped`, `yes`/`no` for a
 *   CONDITION — a multi-branch one's branch id or `default` —, `event`/`timeout` for a WAIT_FOR_EVENT,
 *   `called`, `updated`, `delayed`);
 * - `workflow.waiting`: the execution waits on a DELAY or WAIT_FOR_EVENT step until `dueAt`, or,
 *   without `dueAt`, for its event with no deadline (a WAIT_FOR_EVENT without a timeout);
 * - `workflow.finished`: the execution ended with `status` COMPLETED, EXITED, FAILED or CANCELLED
 *   (`reason`: the EXIT step's reason, the error, or who cancelled).
 */
export class WorkflowExecutionV1 {
  @IsString() workflowId!: string;
  @IsString() workflowName!: string;
  @IsString() executionId!: string;
  @IsString() contactId!: string;
  @IsOptional() @IsEmailAddress() email?: string;
  @IsIn(WORKFLOW_EXECUTION_STATUSES) status!: WorkflowExecutionStatus;
  /** When it happened (ISO 8601). */
  @IsISO8601() at!: string;
  @IsOptional() @IsString() trigger?: string;
  @IsOptional() @IsString() stepId?: string;
  @IsOptional() @IsIn(WORKFLOW_STEP_TYPES) stepType?: WorkflowStepType;
  @IsOptional() @IsString() stepName?: string;
  @IsOptional() @IsString() outcome?: string;
  /**
   * workflow.waiting: when the wait ends at the latest (a DELAY's end, a WAIT_FOR_EVENT's timeout);
   * absent for a WAIT_FOR_EVENT without a timeout, which waits for its event with no deadline.
   */
  @IsOptional() @IsISO8601() dueAt?: string;
  @IsOptional() @IsString() reason?: string;
  /** Small, step-specific details (the email id sent, the webhook's status code, …). */
  @IsOptional() @IsObject() data?: Record<string, unknown>;
}

const workflowEvent = (topic: string) =>
  defineEvent({ topic, version: 1, payload: WorkflowExecutionV1, key: (p) => p.contactId });

export const WorkflowStarted = workflowEvent(Topics.WorkflowStarted);
export const WorkflowStepCompleted = workflowEvent(Topics.WorkflowStepCompleted);
export const WorkflowWaiting = workflowEvent(Topics.WorkflowWaiting);
export const WorkflowFinished = workflowEvent(Topics.WorkflowFinished);
