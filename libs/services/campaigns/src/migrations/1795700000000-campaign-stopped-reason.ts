import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `stopped_reason`: why a campaign stopped taking batches before its audience was sent (`billing_limit`). */
export class CampaignStoppedReason1795700000000 implements MigrationInterface {
  name = 'CampaignStoppedReason1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "campaigns"."campaigns" ADD "stopped_reason" character varying(40)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "campaigns"."campaigns" DROP COLUMN "stopped_reason"`);
  }
}
