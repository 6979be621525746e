import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A WAIT_FOR_EVENT without a timeout (Plunk's optional timeout, docs/workflows.md): its step run has
 * no due time (`due_at` null) until its event arrives, so the claim (`due_at <= now()`) never takes
 * it by itself. Dropping NOT NULL rewrites nothing.
 */
export class WaitWithoutTimeout1796000000000 implements MigrationInterface {
  name = 'WaitWithoutTimeout1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "workflows"."workflow_step_runs" ALTER COLUMN "due_at" DROP NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // a run still waiting with no deadline takes the longest wait there is (one year) from now
    await queryRunner.query(
      `UPDATE "workflows"."workflow_step_runs" SET "due_at" = now() + interval '365 days' WHERE "due_at" IS NULL`,
    );
    await queryRunner.query(`ALTER TABLE "workflows"."workflow_step_runs" ALTER COLUMN "due_at" SET NOT NULL`);
  }
}
