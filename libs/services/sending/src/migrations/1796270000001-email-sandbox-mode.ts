import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Test mode (docs/test-mode.md): an email sent with a test key or to a sandbox address is `test_mode`, never relayed. */
export class EmailSandboxMode1796270000001 implements MigrationInterface {
  name = 'EmailSandboxMode1796270000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sending"."emails" ADD "test_mode" boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sending"."emails" DROP COLUMN "test_mode"`);
  }
}
