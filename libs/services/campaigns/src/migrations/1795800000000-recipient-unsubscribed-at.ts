import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `unsubscribed_at`: a recipient who unsubscribed through the campaign's link (its stats count it). */
export class RecipientUnsubscribedAt1795800000000 implements MigrationInterface {
  name = 'RecipientUnsubscribedAt1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "campaigns"."campaign_recipients" ADD "unsubscribed_at" TIMESTAMP WITH TIME ZONE`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "campaigns"."campaign_recipients" DROP COLUMN "unsubscribed_at"`);
  }
}
