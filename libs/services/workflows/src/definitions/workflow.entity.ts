import type { WorkflowStepType } from '@herald/contracts';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn, VersionColumn } from 'typeorm';

/** A workflow: its trigger, its switches and the version of its graph (docs/workflows.md). */
@Entity({ name: 'workflows' })
@Index('workflows_project_created_idx', ['projectId', 'createdAt', 'id'])
@Index('workflows_trigger_idx', ['projectId', 'eventName'], { where: `"enabled"` })
export class Workflow {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description!: string | null;

  @Column({ name: 'trigger_type', type: 'varchar', length: 20, default: 'EVENT' })
  triggerType!: 'EVENT';

  /** `{eventName}`: the trigger's configuration as sent. */
  @Column({ name: 'trigger_config', type: 'jsonb', default: () => `'{}'` })
  triggerConfig!: Record<string, unknown>;

  /** The event name that starts it (from triggerConfig), indexed for the trigger lookup. */
  @Column({ name: 'event_name', type: 'varchar', length: 255, nullable: true })
  eventName!: string | null;

  @Column({ type: 'boolean', default: false })
  enabled!: boolean;

  @Column({ name: 'allow_reentry', type: 'boolean', default: false })
  allowReentry!: boolean;

  /** Grows with every change of the graph (steps, transitions): executions run the version they started on. */
  @Column({ name: 'graph_version', type: 'integer', default: 1 })
  graphVersion!: number;

  /** Grows with every change of the workflow or its graph: the revision of its usage references. */
  @VersionColumn()
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

@Entity({ name: 'workflow_steps' })
@Index('workflow_steps_workflow_idx', ['workflowId', 'position'])
export class WorkflowStep {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'workflow_id', type: 'varchar', length: 40 })
  workflowId!: string;

  @Column({ type: 'varchar', length: 20 })
  type!: WorkflowStepType;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** The step's order: the entry step is the first step no transition leads to, by this. */
  @Column({ type: 'integer', default: 0 })
  position!: number;

  /** Canvas coordinates `{x, y}` when the step was placed with them (its view answers `position` so); else null. */
  @Column({ type: 'jsonb', nullable: true })
  coordinates!: { x: number; y: number } | null;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  config!: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * An edge of the graph; `branch` is yes/no after a CONDITION (a branch id or default after a
 * multi-branch one), event/timeout after a WAIT_FOR_EVENT.
 */
@Entity({ name: 'workflow_transitions' })
@Index('workflow_transitions_workflow_idx', ['workflowId'])
@Index('workflow_transitions_from_branch_key', ['fromStepId', 'branch'], { unique: true })
export class WorkflowTransition {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'workflow_id', type: 'varchar', length: 40 })
  workflowId!: string;

  @Column({ name: 'from_step_id', type: 'varchar', length: 40 })
  fromStepId!: string;

  @Column({ name: 'to_step_id', type: 'varchar', length: 40 })
  toStepId!: string;

  /** `''` for a step's single way on (so that the unique key holds), else the branch (at most 64 characters). */
  @Column({ type: 'varchar', length: 64, default: '' })
  branch!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** The graph of one version of a workflow, frozen when the first execution of that version starts. */
@Entity({ name: 'workflow_versions' })
export class WorkflowVersion {
  @PrimaryColumn({ name: 'workflow_id', type: 'varchar', length: 40 })
  workflowId!: string;

  @PrimaryColumn({ name: 'graph_version', type: 'integer' })
  graphVersion!: number;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'jsonb' })
  graph!: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
