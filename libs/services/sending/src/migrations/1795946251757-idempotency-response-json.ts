import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An Idempotency-Key's answer kept as `json`, not `jsonb`: the text as it was first answered, so a
 * retry gets the same bytes (jsonb reorders an object's keys).
 */
export class IdempotencyResponseJson1795946251757 implements MigrationInterface {
  name = 'IdempotencyResponseJson1795946251757';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sending"."idempotency_keys" ALTER COLUMN "response" TYPE json USING "response"::json`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sending"."idempotency_keys" ALTER COLUMN "response" TYPE jsonb USING "response"::jsonb`,
    );
  }
}
