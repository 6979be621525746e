import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Campaigns, the delivery ledger and the jobs table (docs/campaigns.md). Hand-added beside what the
 * entities say: the ledger's partial unique index on (campaign, address) for rows that can be sent
 * (a `skipped: duplicate` or `invalid_address` row shares its address), and the partial index of
 * rows not yet final (the sender's and the finisher's lookups).
 */
export class CampaignsLedger1795560100000 implements MigrationInterface {
  name = 'CampaignsLedger1795560100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "campaigns"."jobs" ("id" character varying(60) NOT NULL, "queue" character varying(100) NOT NULL, "payload" jsonb NOT NULL DEFAULT '{}', "state" character varying(12) NOT NULL DEFAULT 'queued', "attempts" integer NOT NULL DEFAULT '0', "max_attempts" integer NOT NULL DEFAULT '5', "run_after" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locked_by" character varying(100), "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_campaigns_jobs" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_lease_idx" ON "campaigns"."jobs"  ("locked_until") WHERE "state" = 'running'`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_claim_idx" ON "campaigns"."jobs"  ("queue", "run_after") WHERE "state" = 'queued'`,
    );
    await queryRunner.query(
      `CREATE TABLE "campaigns"."campaigns" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "name" character varying(200) NOT NULL, "description" character varying(500), "subject" character varying(998) NOT NULL, "body" text NOT NULL, "from_address" character varying(320) NOT NULL, "from_name" character varying(200), "reply_to" character varying(320), "audience_type" character varying(10) NOT NULL, "segment_id" character varying(40), "audience_filter" jsonb, "template_id" character varying(60), "status" character varying(12) NOT NULL, "scheduled_at" TIMESTAMP WITH TIME ZONE, "send_seq" integer NOT NULL DEFAULT '0', "resolve_cursor" character varying(64), "resolved" boolean NOT NULL DEFAULT false, "started_at" TIMESTAMP WITH TIME ZONE, "sent_at" TIMESTAMP WITH TIME ZONE, "cancelled_at" TIMESTAMP WITH TIME ZONE, "version" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_campaigns_campaigns" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "campaigns_project_created_idx" ON "campaigns"."campaigns"  ("project_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "campaigns"."campaign_recipients" ("campaign_id" character varying(40) NOT NULL, "contact_id" character varying(64) NOT NULL, "project_id" character varying(40) NOT NULL, "seq" bigint NOT NULL, "email" character varying(320) NOT NULL, "status" character varying(10) NOT NULL, "reason" character varying(20), "error" text, "email_id" character varying(60), "contact" jsonb, "sent_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, "opened_at" TIMESTAMP WITH TIME ZONE, "clicked_at" TIMESTAMP WITH TIME ZONE, "bounced_at" TIMESTAMP WITH TIME ZONE, "complained_at" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_campaigns_campaign_recipients" PRIMARY KEY ("campaign_id", "contact_id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "campaign_recipients_seq" ON "campaigns"."campaign_recipients"  ("campaign_id", "seq") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "campaign_recipients_address" ON "campaigns"."campaign_recipients" ("campaign_id", "email") WHERE "reason" IS NULL OR "reason" NOT IN ('duplicate', 'invalid_address')`,
    );
    await queryRunner.query(
      `CREATE INDEX "campaign_recipients_open" ON "campaigns"."campaign_recipients" ("campaign_id", "status", "seq") WHERE "status" IN ('pending', 'queued')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "campaigns"."campaign_recipients"`);
    await queryRunner.query(`DROP TABLE "campaigns"."campaigns"`);
    await queryRunner.query(`DROP TABLE "campaigns"."jobs"`);
  }
}
