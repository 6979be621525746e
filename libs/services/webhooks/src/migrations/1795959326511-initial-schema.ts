import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795959326511 implements MigrationInterface {
  name = 'InitialSchema1795959326511';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhooks"."jobs" ("id" character varying(60) NOT NULL, "queue" character varying(100) NOT NULL, "payload" jsonb NOT NULL DEFAULT '{}', "state" character varying(12) NOT NULL DEFAULT 'queued', "attempts" integer NOT NULL DEFAULT '0', "max_attempts" integer NOT NULL DEFAULT '5', "run_after" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locked_by" character varying(100), "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cf0a6c42b72fcc7f7c237def345" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_lease_idx" ON "webhooks"."jobs"  ("locked_until") WHERE "state" = 'running'`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_claim_idx" ON "webhooks"."jobs"  ("queue", "run_after") WHERE "state" = 'queued'`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhooks"."dead_letters" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "consumer" character varying(100) NOT NULL, "topic" character varying(255) NOT NULL, "event_id" character varying(100), "message" jsonb NOT NULL, "error" text NOT NULL, "attempts" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_084e63809483fb0a9c48aae607f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhooks"."inbox" ("consumer" character varying(100) NOT NULL, "event_id" uuid NOT NULL, "topic" character varying(255) NOT NULL, "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_625a303addbbe1f30d3f65ed7fe" PRIMARY KEY ("consumer", "event_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "inbox_processed_at_idx" ON "webhooks"."inbox"  ("processed_at") `);
    await queryRunner.query(
      `CREATE TABLE "webhooks"."outbox" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "event_id" uuid NOT NULL, "topic" character varying(255) NOT NULL, "message_key" character varying(255) NOT NULL, "envelope" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "published_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_cc0c9e40998e45ecfc5e313429d" UNIQUE ("event_id"), CONSTRAINT "PK_340ab539f309f03bdaa14aa7649" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "outbox_unpublished_idx" ON "webhooks"."outbox"  ("id") WHERE "published_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhooks"."endpoints" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "url" text NOT NULL, "description" character varying(500), "event_types" character varying(100) array NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "status" character varying(12) NOT NULL DEFAULT 'active', "failing_since" TIMESTAMP WITH TIME ZONE, "secret_sealed" text NOT NULL, "previous_secret_sealed" text, "previous_secret_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_70835610dfa54ad5d990e02f70a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "endpoints_project_created_idx" ON "webhooks"."endpoints"  ("project_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhooks"."deliveries" ("seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "id" character varying(40) NOT NULL, "endpoint_id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "event_id" uuid NOT NULL, "event_type" character varying(100) NOT NULL, "body" text NOT NULL, "lane" smallint NOT NULL, "status" character varying(12) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "last_attempt_at" TIMESTAMP WITH TIME ZONE, "response_status" integer, "response_body" text, "latency_ms" integer, "last_error" text, "delivered_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_483ccb26d15e70f5325536e9c47" PRIMARY KEY ("seq"))`,
    );
    await queryRunner.query(`CREATE INDEX "deliveries_project_idx" ON "webhooks"."deliveries"  ("project_id") `);
    await queryRunner.query(
      `CREATE INDEX "deliveries_endpoint_created_idx" ON "webhooks"."deliveries"  ("endpoint_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "deliveries_lane_pending_idx" ON "webhooks"."deliveries"  ("endpoint_id", "lane", "seq") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "deliveries_endpoint_event_key" ON "webhooks"."deliveries"  ("endpoint_id", "event_id") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "deliveries_id_key" ON "webhooks"."deliveries"  ("id") `);
    await queryRunner.query(
      `CREATE TABLE "webhooks"."lanes" ("endpoint_id" character varying(40) NOT NULL, "lane" smallint NOT NULL, "project_id" character varying(40) NOT NULL, "link_seq" integer NOT NULL DEFAULT '0', "due_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_4c2e1b0ddee22fd8d94d3a1ab3d" PRIMARY KEY ("endpoint_id", "lane"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhooks"."lanes"`);
    await queryRunner.query(`DROP INDEX "webhooks"."deliveries_id_key"`);
    await queryRunner.query(`DROP INDEX "webhooks"."deliveries_endpoint_event_key"`);
    await queryRunner.query(`DROP INDEX "webhooks"."deliveries_lane_pending_idx"`);
    await queryRunner.query(`DROP INDEX "webhooks"."deliveries_endpoint_created_idx"`);
    await queryRunner.query(`DROP INDEX "webhooks"."deliveries_project_idx"`);
    await queryRunner.query(`DROP TABLE "webhooks"."deliveries"`);
    await queryRunner.query(`DROP INDEX "webhooks"."endpoints_project_created_idx"`);
    await queryRunner.query(`DROP TABLE "webhooks"."endpoints"`);
    await queryRunner.query(`DROP INDEX "webhooks"."outbox_unpublished_idx"`);
    await queryRunner.query(`DROP TABLE "webhooks"."outbox"`);
    await queryRunner.query(`DROP INDEX "webhooks"."inbox_processed_at_idx"`);
    await queryRunner.query(`DROP TABLE "webhooks"."inbox"`);
    await queryRunner.query(`DROP TABLE "webhooks"."dead_letters"`);
    await queryRunner.query(`DROP INDEX "webhooks"."jobs_claim_idx"`);
    await queryRunner.query(`DROP INDEX "webhooks"."jobs_lease_idx"`);
    await queryRunner.query(`DROP TABLE "webhooks"."jobs"`);
  }
}
