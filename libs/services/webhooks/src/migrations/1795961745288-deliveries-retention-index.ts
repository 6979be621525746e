import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DeliveriesRetentionIndex1795961745288 implements MigrationInterface {
  name = 'DeliveriesRetentionIndex1795961745288';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "deliveries_finished_created_idx" ON "webhooks"."deliveries"  ("created_at") WHERE "status" <> 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "webhooks"."deliveries_finished_created_idx"`);
  }
}
