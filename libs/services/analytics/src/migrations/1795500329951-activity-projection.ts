import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ActivityProjection1795500329951 implements MigrationInterface {
  name = 'ActivityProjection1795500329951';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "analytics"."jobs" ("id" character varying(60) NOT NULL, "queue" character varying(100) NOT NULL, "payload" jsonb NOT NULL DEFAULT '{}', "state" character varying(12) NOT NULL DEFAULT 'queued', "attempts" integer NOT NULL DEFAULT '0', "max_attempts" integer NOT NULL DEFAULT '5', "run_after" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locked_by" character varying(100), "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cf0a6c42b72fcc7f7c237def345" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_lease_idx" ON "analytics"."jobs"  ("locked_until") WHERE "state" = 'running'`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_claim_idx" ON "analytics"."jobs"  ("queue", "run_after") WHERE "state" = 'queued'`,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."activity_items" ("event_id" uuid NOT NULL, "project_id" character varying(40) NOT NULL, "type" character varying(40) NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "contact_id" character varying(64), "contact_email" character varying(320), "email_id" character varying(64), "email_subject" character varying(998), "campaign_id" character varying(64), "workflow_id" character varying(64), "workflow_name" character varying(255), "data" jsonb NOT NULL DEFAULT '{}', CONSTRAINT "PK_1a1eb2089e219980a087879b45a" PRIMARY KEY ("event_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "activity_items_campaign_time_idx" ON "analytics"."activity_items"  ("project_id", "campaign_id", "occurred_at") WHERE campaign_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "activity_items_contact_time_idx" ON "analytics"."activity_items"  ("project_id", "contact_id", "occurred_at") WHERE contact_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "activity_items_project_type_time_idx" ON "analytics"."activity_items"  ("project_id", "type", "occurred_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "activity_items_project_time_idx" ON "analytics"."activity_items"  ("project_id", "occurred_at", "event_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."activity_hourly" ("project_id" character varying(40) NOT NULL, "hour" TIMESTAMP WITH TIME ZONE NOT NULL, "type" character varying(40) NOT NULL, "count" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_f42e50f326533b6206b8df59f81" PRIMARY KEY ("project_id", "hour", "type"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."activity_minutely" ("project_id" character varying(40) NOT NULL, "minute" TIMESTAMP WITH TIME ZONE NOT NULL, "count" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_30cb989f6cc01b78dedbde26777" PRIMARY KEY ("project_id", "minute"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."activity_types" ("project_id" character varying(40) NOT NULL, "type" character varying(40) NOT NULL, "count" bigint NOT NULL DEFAULT '0', "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_986ff0956f8367f47d59c36efc4" PRIMARY KEY ("project_id", "type"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."tracked_emails" ("email_id" character varying(64) NOT NULL, "project_id" character varying(40) NOT NULL, "contact_id" character varying(64), "campaign_id" character varying(64), "sent_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_4f34dfe4553612263e3c6256f1c" PRIMARY KEY ("email_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "tracked_emails_sent_at_idx" ON "analytics"."tracked_emails"  ("sent_at") `);
    await queryRunner.query(
      `CREATE INDEX "tracked_emails_contact_sent_idx" ON "analytics"."tracked_emails"  ("project_id", "contact_id", "sent_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."campaign_stats" ("project_id" character varying(40) NOT NULL, "campaign_id" character varying(64) NOT NULL, "name" character varying(255), "subject" character varying(998), "state" character varying(12) NOT NULL DEFAULT 'unknown', "state_at" TIMESTAMP WITH TIME ZONE, "scheduled_at" TIMESTAMP WITH TIME ZONE, "estimated_recipients" integer, "recipients" integer, "sent" integer NOT NULL DEFAULT '0', "delivered" integer NOT NULL DEFAULT '0', "opens_total" integer NOT NULL DEFAULT '0', "opens_unique" integer NOT NULL DEFAULT '0', "opens_prefetch" integer NOT NULL DEFAULT '0', "clicks_total" integer NOT NULL DEFAULT '0', "clicks_unique" integer NOT NULL DEFAULT '0', "bounces" integer NOT NULL DEFAULT '0', "complaints" integer NOT NULL DEFAULT '0', "failed" integer NOT NULL DEFAULT '0', "unsubscribes" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_5bf3838736b12be96555b66dea6" PRIMARY KEY ("project_id", "campaign_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "campaign_stats_scheduled_idx" ON "analytics"."campaign_stats"  ("project_id", "scheduled_at") WHERE state = 'scheduled'`,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."campaign_engagements" ("project_id" character varying(40) NOT NULL, "campaign_id" character varying(64) NOT NULL, "recipient" character varying(320) NOT NULL, "kind" character varying(12) NOT NULL, CONSTRAINT "PK_4940c599c9ce505ce6f2698d21c" PRIMARY KEY ("project_id", "campaign_id", "recipient", "kind"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."workflow_executions" ("execution_id" character varying(64) NOT NULL, "project_id" character varying(40) NOT NULL, "workflow_id" character varying(64) NOT NULL, "workflow_name" character varying(255) NOT NULL, "contact_id" character varying(64) NOT NULL, "email" character varying(320), "status" character varying(12) NOT NULL, "step_id" character varying(64), "step_type" character varying(20), "step_name" character varying(255), "due_at" TIMESTAMP WITH TIME ZONE, "state_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_174d18f60d60108ef3adb861541" PRIMARY KEY ("execution_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "workflow_executions_updated_idx" ON "analytics"."workflow_executions"  ("state_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "workflow_executions_waiting_idx" ON "analytics"."workflow_executions"  ("project_id", "due_at") WHERE status = 'WAITING'`,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."retention_state" ("id" integer NOT NULL, "seq" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_e3922e1957a916bb8b1f9f97e4a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."event_counts_daily" ("project_id" character varying(40) NOT NULL, "day" date NOT NULL, "name" character varying(255) NOT NULL, "count" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_15dcbd2d474d24475afe5cb2662" PRIMARY KEY ("project_id", "day", "name"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "analytics"."event_counts_daily"`);
    await queryRunner.query(`DROP TABLE "analytics"."retention_state"`);
    await queryRunner.query(`DROP INDEX "analytics"."workflow_executions_waiting_idx"`);
    await queryRunner.query(`DROP INDEX "analytics"."workflow_executions_updated_idx"`);
    await queryRunner.query(`DROP TABLE "analytics"."workflow_executions"`);
    await queryRunner.query(`DROP TABLE "analytics"."campaign_engagements"`);
    await queryRunner.query(`DROP INDEX "analytics"."campaign_stats_scheduled_idx"`);
    await queryRunner.query(`DROP TABLE "analytics"."campaign_stats"`);
    await queryRunner.query(`DROP INDEX "analytics"."tracked_emails_contact_sent_idx"`);
    await queryRunner.query(`DROP INDEX "analytics"."tracked_emails_sent_at_idx"`);
    await queryRunner.query(`DROP TABLE "analytics"."tracked_emails"`);
    await queryRunner.query(`DROP TABLE "analytics"."activity_types"`);
    await queryRunner.query(`DROP TABLE "analytics"."activity_minutely"`);
    await queryRunner.query(`DROP TABLE "analytics"."activity_hourly"`);
    await queryRunner.query(`DROP INDEX "analytics"."activity_items_project_time_idx"`);
    await queryRunner.query(`DROP INDEX "analytics"."activity_items_project_type_time_idx"`);
    await queryRunner.query(`DROP INDEX "analytics"."activity_items_contact_time_idx"`);
    await queryRunner.query(`DROP INDEX "analytics"."activity_items_campaign_time_idx"`);
    await queryRunner.query(`DROP TABLE "analytics"."activity_items"`);
    await queryRunner.query(`DROP INDEX "analytics"."jobs_claim_idx"`);
    await queryRunner.query(`DROP INDEX "analytics"."jobs_lease_idx"`);
    await queryRunner.query(`DROP TABLE "analytics"."jobs"`);
  }
}
