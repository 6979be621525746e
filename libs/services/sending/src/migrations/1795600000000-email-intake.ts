import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The internal intake (POST /internal/emails): each email's caller key, unique per project for
 * good (the same key never makes a second email), and the campaign / workflow it belongs to, so
 * every email.* event carries them.
 */
export class EmailIntake1795600000000 implements MigrationInterface {
  name = 'EmailIntake1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sending"."emails" ADD "source_key" character varying(200), ADD "campaign_id" character varying(60), ADD "workflow_id" character varying(60), ADD "execution_id" character varying(60)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "emails_project_source_key" ON "sending"."emails" ("project_id", "source_key")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "sending"."emails_project_source_key"`);
    await queryRunner.query(
      `ALTER TABLE "sending"."emails" DROP COLUMN "execution_id", DROP COLUMN "workflow_id", DROP COLUMN "campaign_id", DROP COLUMN "source_key"`,
    );
  }
}
