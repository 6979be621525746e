import type { WorkflowExecutionStatus, WorkflowStepType } from '@herald/contracts';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

export const ACTIVE_STATUSES: readonly WorkflowExecutionStatus[] = ['RUNNING', 'WAITING'];

/**
 * One contact's run through one version of a workflow. `trigger_event_id` is the id of the event
 * that started it: one event starts at most one execution per workflow, however often delivered.
 * At most one active execution per contact and workflow (partial unique index).
 */
@Entity({ name: 'workflow_executions' })
@Index('workflow_executions_list_idx', ['workflowId', 'id'])
@Index('workflow_executions_trigger_key', ['workflowId', 'triggerEventId'], { unique: true })
@Index('workflow_executions_active_key', ['workflowId', 'contactId'], {
  unique: true,
  where: `"status" IN ('RUNNING', 'WAITING')`,
})
@Index('workflow_executions_contact_idx', ['projectId', 'contactId'])
export class WorkflowExecution {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'workflow_id', type: 'varchar', length: 40 })
  workflowId!: string;

  @Column({ name: 'graph_version', type: 'integer' })
  graphVersion!: number;

  @Column({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 12 })
  status!: WorkflowExecutionStatus;

  /** The event name that started it, or `manual`. */
  @Column({ type: 'varchar', length: 255 })
  trigger!: string;

  @Column({ name: 'trigger_event_id', type: 'varchar', length: 100, nullable: true })
  triggerEventId!: string | null;

  /** The triggering event's data (`event.<key>` in conditions and templates). */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  event!: Record<string, unknown>;

  /** Per-execution variables; WAIT_FOR_EVENT merges the awaited event's data into it. */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  context!: Record<string, unknown>;

  @Column({ name: 'current_step_id', type: 'varchar', length: 40, nullable: true })
  currentStepId!: string | null;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @CreateDateColumn({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}

export type StepRunStatus = 'PENDING' | 'DONE' | 'FAILED' | 'CANCELLED';

/**
 * One step of one execution: the durable unit of work and the timer at once. A PENDING row is
 * claimed (`FOR UPDATE SKIP LOCKED`) once `due_at` has passed: at once for most steps, at the end of
 * a DELAY, at a WAIT_FOR_EVENT's timeout (or when its event arrives: `due_at` moves to now). A
 * WAIT_FOR_EVENT without a timeout has no `due_at` (null) until its event arrives.
 */
@Entity({ name: 'workflow_step_runs' })
@Index('workflow_step_runs_due_idx', ['dueAt'], { where: `"status" = 'PENDING'` })
@Index('workflow_step_runs_execution_idx', ['executionId', 'id'])
@Index('workflow_step_runs_waiting_idx', ['projectId', 'contactId', 'waitEvent'], {
  where: `"status" = 'PENDING' AND "wait_event" IS NOT NULL`,
})
export class WorkflowStepRun {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'execution_id', type: 'varchar', length: 40 })
  executionId!: string;

  @Column({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  @Column({ name: 'step_id', type: 'varchar', length: 40 })
  stepId!: string;

  @Column({ name: 'step_type', type: 'varchar', length: 20 })
  stepType!: WorkflowStepType;

  @Column({ type: 'varchar', length: 10, default: 'PENDING' })
  status!: StepRunStatus;

  /** Null: a WAIT_FOR_EVENT without a timeout, waiting for its event with no deadline. */
  @Column({ name: 'due_at', type: 'timestamptz', nullable: true })
  dueAt!: Date | null;

  /** WAIT_FOR_EVENT: the awaited event name while it waits. */
  @Column({ name: 'wait_event', type: 'varchar', length: 255, nullable: true })
  waitEvent!: string | null;

  /** WAIT_FOR_EVENT: the awaited event's data once it arrived (then the `event` branch is taken). */
  @Column({ name: 'resumed_with', type: 'jsonb', nullable: true })
  resumedWith!: Record<string, unknown> | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /**
   * W3C trace context of what entered the run (the event that started the execution, the step
   * before) or of the event that resumed it, when traced: the runner runs the step in that trace (ADR 0019).
   */
  @Column({ type: 'varchar', length: 55, nullable: true })
  traceparent!: string | null;

  /** What the step did (sent, delayed, …), or the branch it took (a multi-branch CONDITION's id: up to 64). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  outcome!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /** Step-specific details: the email id, the webhook's answer, the condition's values. */
  @Column({ type: 'jsonb', nullable: true })
  detail!: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}

/**
 * Contacts that ran a workflow (re-entry): one row per contact and workflow, written when an
 * execution starts, so `allowReentry: false` is one primary-key lookup.
 */
@Entity({ name: 'workflow_entries' })
export class WorkflowEntry {
  @PrimaryColumn({ name: 'workflow_id', type: 'varchar', length: 40 })
  workflowId!: string;

  @PrimaryColumn({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @CreateDateColumn({ name: 'first_at', type: 'timestamptz' })
  firstAt!: Date;
}

/**
 * Keys seen in data, with the type of their first non-null value (GET /workflows/fields): `scope`
 * is `contact` for the contacts' data (from contact.created/updated), `event:<name>` for the data of
 * tracked events of that name.
 */
@Entity({ name: 'workflow_seen_keys' })
export class WorkflowSeenKey {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ type: 'varchar', length: 300 })
  scope!: string;

  @PrimaryColumn({ type: 'varchar', length: 300 })
  key!: string;

  @Column({ type: 'varchar', length: 10 })
  type!: string;
}

/** The contact's tracked events and email engagement as workflows saw them (CONDITION activity operators). */
@Entity({ name: 'workflow_contact_activity' })
@Index('workflow_contact_activity_contact_idx', ['projectId', 'contactId', 'id'])
export class WorkflowContactActivity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  /** `event` (tracked) or `email` (engagement kind in `name`). */
  @Column({ type: 'varchar', length: 10 })
  source!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;
}

/** Tracked segment memberships (segment.entered / segment.exited): `segment.<id>` in CONDITION steps. */
@Entity({ name: 'workflow_segment_members' })
export class WorkflowSegmentMember {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  @PrimaryColumn({ name: 'segment_id', type: 'varchar', length: 40 })
  segmentId!: string;
}
