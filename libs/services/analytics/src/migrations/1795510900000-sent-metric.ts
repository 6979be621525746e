import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The time series' `sent` follows the campaign counters' rule (docs/analytics.md, "Sent"): each
 * email once, on its first `email.sent` or `email.bounced`, counted under the hourly type
 * `metric.sent`. Existing data: every sent email is marked counted and its hour's `email.sent`
 * count is copied; an immediate bounce still in the feed (no `email.sent` known) is counted too.
 */
export class SentMetric1795510900000 implements MigrationInterface {
  name = 'SentMetric1795510900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "analytics"."tracked_emails" ADD "counted_sent_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `UPDATE "analytics"."tracked_emails" SET "counted_sent_at" = "sent_at" WHERE "sent_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `INSERT INTO "analytics"."activity_hourly" ("project_id", "hour", "type", "count")
       SELECT "project_id", "hour", 'metric.sent', "count" FROM "analytics"."activity_hourly" WHERE "type" = 'email.sent'
       ON CONFLICT ("project_id", "hour", "type") DO NOTHING`,
    );
    await queryRunner.query(
      `WITH bounced AS (
         INSERT INTO "analytics"."tracked_emails" ("email_id", "project_id", "contact_id", "campaign_id", "counted_sent_at")
         SELECT DISTINCT ON ("email_id") "email_id", "project_id", "contact_id", "campaign_id", "occurred_at"
           FROM "analytics"."activity_items" WHERE "type" = 'email.bounced' AND "email_id" IS NOT NULL
           ORDER BY "email_id", "occurred_at"
         ON CONFLICT ("email_id") DO NOTHING
         RETURNING "project_id", "counted_sent_at")
       INSERT INTO "analytics"."activity_hourly" AS t ("project_id", "hour", "type", "count")
       SELECT "project_id", date_trunc('hour', "counted_sent_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', 'metric.sent', count(*)
         FROM bounced GROUP BY 1, 2
       ON CONFLICT ("project_id", "hour", "type") DO UPDATE SET "count" = t."count" + EXCLUDED."count"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "analytics"."activity_hourly" WHERE "type" = 'metric.sent'`);
    await queryRunner.query(
      `DELETE FROM "analytics"."tracked_emails" WHERE "sent_at" IS NULL AND "delivered_at" IS NULL`,
    );
    await queryRunner.query(`ALTER TABLE "analytics"."tracked_emails" DROP COLUMN "counted_sent_at"`);
  }
}
