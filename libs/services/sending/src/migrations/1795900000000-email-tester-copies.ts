import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A campaign's test send (POST /campaigns/:id/test) is recorded as one: `test`, false for every other email. */
export class EmailTestFlag1795900000000 implements MigrationInterface {
  name = 'EmailTestFlag1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sending"."emails" ADD "test" boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sending"."emails" DROP COLUMN "test"`);
  }
}
