import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Test keys (`sk_test_…`, `pk_test_…`) beside the live ones: `test_mode`, false for every key issued before. */
export class ApiKeyModes1796270000000 implements MigrationInterface {
  name = 'ApiKeyModes1796270000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "gateway"."api_keys" ADD "test_mode" boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "gateway"."api_keys" DROP COLUMN "test_mode"`);
  }
}
