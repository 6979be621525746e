import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `/analytics/campaign-stats` without a campaign id lists every campaign newest first: each campaign
 * keeps when it was created (`created_at`, its earliest event) and when its name was given
 * (`name_at`: the newest event's name wins, whichever topic brings it). Existing rows: a campaign id
 * made by `newId` starts with its creation time (10 base-32 characters of milliseconds), which is
 * read back; any other row takes the time of its latest state (`state_at`). A deleted campaign keeps
 * its row (late events of its emails still land on it) with `deleted_at` set, and is listed no more.
 */
export class CampaignCreatedAt1795910000000 implements MigrationInterface {
  name = 'CampaignCreatedAt1795910000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "analytics"."campaign_stats" ADD "name_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "analytics"."campaign_stats" ADD "created_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "analytics"."campaign_stats" ADD "deleted_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `UPDATE "analytics"."campaign_stats" SET "name_at" = "state_at", "created_at" = CASE
         WHEN "campaign_id" ~ '^cmp_[0-9a-hjkmnp-tv-z]{26}$' THEN to_timestamp((
           SELECT sum((strpos('0123456789abcdefghjkmnpqrstvwxyz', substr("campaign_id", 4 + i, 1)) - 1)::float8
                      * power(32::float8, 10 - i))
             FROM generate_series(1, 10) AS i) / 1000)
         ELSE "state_at" END`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "analytics"."campaign_stats" DROP COLUMN "deleted_at"`);
    await queryRunner.query(`ALTER TABLE "analytics"."campaign_stats" DROP COLUMN "created_at"`);
    await queryRunner.query(`ALTER TABLE "analytics"."campaign_stats" DROP COLUMN "name_at"`);
  }
}
