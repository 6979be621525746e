import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ImportVerification1795958917551 implements MigrationInterface {
  name = 'ImportVerification1795958917551';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "contacts"."contact_imports" ADD "verify" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `ALTER TABLE "contacts"."contact_imports" ADD "skip_invalid" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`ALTER TABLE "contacts"."contact_imports" ADD "warnings" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(
      `ALTER TABLE "contacts"."contact_imports" ADD "verdict_counts" jsonb NOT NULL DEFAULT '{}'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "contacts"."contact_imports" DROP COLUMN "verdict_counts"`);
    await queryRunner.query(`ALTER TABLE "contacts"."contact_imports" DROP COLUMN "warnings"`);
    await queryRunner.query(`ALTER TABLE "contacts"."contact_imports" DROP COLUMN "skip_invalid"`);
    await queryRunner.query(`ALTER TABLE "contacts"."contact_imports" DROP COLUMN "verify"`);
  }
}
