import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workflows, steps, transitions, frozen graph versions, executions, step runs (the durable timers:
 * a partial index on due time over pending runs), re-entry records, and what workflows keeps of
 * contacts for CONDITION steps and GET /workflows/fields (docs/workflows.md).
 */
export class WorkflowsDefinitionsAndRuntime1795600000000 implements MigrationInterface {
  name = 'WorkflowsDefinitionsAndRuntime1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "workflows"."workflows" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "name" character varying(200) NOT NULL, "description" character varying(1000), "trigger_type" character varying(20) NOT NULL DEFAULT 'EVENT', "trigger_config" jsonb NOT NULL DEFAULT '{}', "event_name" character varying(255), "enabled" boolean NOT NULL DEFAULT false, "allow_reentry" boolean NOT NULL DEFAULT false, "graph_version" integer NOT NULL DEFAULT '1', "version" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5b5757cc1cd86268019fef52e0c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "workflows_trigger_idx" ON "workflows"."workflows"  ("project_id", "event_name") WHERE "enabled"`,
    );
    await queryRunner.query(
      `CREATE INDEX "workflows_project_created_idx" ON "workflows"."workflows"  ("project_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "workflows"."workflow_steps" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "workflow_id" character varying(40) NOT NULL, "type" character varying(20) NOT NULL, "name" character varying(200) NOT NULL, "position" integer NOT NULL DEFAULT '0', "config" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b602e5ecb22943db11c96a7f31c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "workflow_steps_workflow_idx" ON "workflows"."workflow_steps"  ("workflow_id", "position")`,
    );
    await queryRunner.query(
      `CREATE TABLE "workflows"."workflow_transitions" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "workflow_id" character varying(40) NOT NULL, "from_step_id" character varying(40) NOT NULL, "to_step_id" character varying(40) NOT NULL, "branch" character varying(10) NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_edda0b5bb7b13fc6681c56764af" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "workflow_transitions_from_branch_key" ON "workflows"."workflow_transitions"  ("from_step_id", "branch")`,
    );
    await queryRunner.query(
      `CREATE INDEX "workflow_transitions_workflow_idx" ON "workflows"."workflow_transitions"  ("workflow_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "workflows"."workflow_versions" ("workflow_id" character varying(40) NOT NULL, "graph_version" integer NOT NULL, "project_id" character varying(40) NOT NULL, "graph" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0ff79e6cd6698fc89b260b15d12" PRIMARY KEY ("workflow_id", "graph_version"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "workflows"."workflow_executions" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "workflow_id" character varying(40) NOT NULL, "graph_version" integer NOT NULL, "contact_id" character varying(64) NOT NULL, "email" character varying(320) NOT NULL, "status" character varying(12) NOT NULL, "trigger" character varying(255) NOT NULL, "trigger_event_id" character varying(100), "event" jsonb NOT NULL DEFAULT '{}', "context" jsonb NOT NULL DEFAULT '{}', "current_step_id" character varying(40), "reason" text, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_9d49b5c86c267d902145ed42c9d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "workflow_executions_contact_idx" ON "workflows"."workflow_executions"  ("project_id", "contact_id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "workflow_executions_active_key" ON "workflows"."workflow_executions"  ("workflow_id", "contact_id") WHERE "status" IN ('RUNNING', 'WAITING')`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "workflow_executions_trigger_key" ON "workflows"."workflow_executions"  ("workflow_id", "trigger_event_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "workflow_executions_list_idx" ON "workflows"."workflow_executions"  ("workflow_id", "id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "workflows"."workflow_step_runs" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "execution_id" character varying(40) NOT NULL, "contact_id" character varying(64) NOT NULL, "step_id" character varying(40) NOT NULL, "step_type" character varying(20) NOT NULL, "status" character varying(10) NOT NULL DEFAULT 'PENDING', "due_at" TIMESTAMP WITH TIME ZONE NOT NULL, "wait_event" character varying(255), "resumed_with" jsonb, "attempts" integer NOT NULL DEFAULT '0', "outcome" character varying(40), "error" text, "detail" jsonb, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_6f0af0283f7143e7f1ebe3f5137" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "workflow_step_runs_waiting_idx" ON "workflows"."workflow_step_runs"  ("project_id", "contact_id", "wait_event") WHERE "status" = 'PENDING' AND "wait_event" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "workflow_step_runs_execution_idx" ON "workflows"."workflow_step_runs"  ("execution_id", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "workflow_step_runs_due_idx" ON "workflows"."workflow_step_runs"  ("due_at") WHERE "status" = 'PENDING'`,
    );
    await queryRunner.query(
      `CREATE TABLE "workflows"."workflow_entries" ("workflow_id" character varying(40) NOT NULL, "contact_id" character varying(64) NOT NULL, "project_id" character varying(40) NOT NULL, "first_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8f5e43f3e88ba5f798a11ae9eec" PRIMARY KEY ("workflow_id", "contact_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "workflows"."workflow_seen_keys" ("project_id" character varying(40) NOT NULL, "scope" character varying(300) NOT NULL, "key" character varying(300) NOT NULL, "type" character varying(10) NOT NULL, CONSTRAINT "PK_3a12b6bb5966123e674aaec08e7" PRIMARY KEY ("project_id", "scope", "key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "workflows"."workflow_contact_activity" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "project_id" character varying(40) NOT NULL, "contact_id" character varying(64) NOT NULL, "source" character varying(10) NOT NULL, "name" character varying(255) NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_c25d8e9869210b8c6bd5122283d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "workflow_contact_activity_contact_idx" ON "workflows"."workflow_contact_activity"  ("project_id", "contact_id", "id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "workflows"."workflow_segment_members" ("project_id" character varying(40) NOT NULL, "contact_id" character varying(64) NOT NULL, "segment_id" character varying(40) NOT NULL, CONSTRAINT "PK_b65600daa471e690fea8b0a6cb4" PRIMARY KEY ("project_id", "contact_id", "segment_id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "workflows"."workflows"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflows_trigger_idx"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflows_project_created_idx"`);
    await queryRunner.query(`DROP TABLE "workflows"."workflow_steps"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflow_steps_workflow_idx"`);
    await queryRunner.query(`DROP TABLE "workflows"."workflow_transitions"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflow_transitions_from_branch_key"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflow_transitions_workflow_idx"`);
    await queryRunner.query(`DROP TABLE "workflows"."workflow_versions"`);
    await queryRunner.query(`DROP TABLE "workflows"."workflow_executions"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflow_executions_contact_idx"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflow_executions_active_key"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflow_executions_trigger_key"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflow_executions_list_idx"`);
    await queryRunner.query(`DROP TABLE "workflows"."workflow_step_runs"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflow_step_runs_waiting_idx"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflow_step_runs_execution_idx"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflow_step_runs_due_idx"`);
    await queryRunner.query(`DROP TABLE "workflows"."workflow_entries"`);
    await queryRunner.query(`DROP TABLE "workflows"."workflow_seen_keys"`);
    await queryRunner.query(`DROP TABLE "workflows"."workflow_contact_activity"`);
    await queryRunner.query(`DROP INDEX "workflows"."workflow_contact_activity_contact_idx"`);
    await queryRunner.query(`DROP TABLE "workflows"."workflow_segment_members"`);
  }
}
