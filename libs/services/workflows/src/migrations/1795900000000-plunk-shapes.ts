import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plunk's workflow shapes (docs/workflows.md): a step's canvas coordinates `{x, y}` beside its order,
 * and branches as long as a multi-branch CONDITION's ids (64) on transitions and step run outcomes.
 * Widening a varchar rewrites nothing (nor the unique index on from_step_id, branch).
 */
export class PlunkShapes1795900000000 implements MigrationInterface {
  name = 'PlunkShapes1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "workflows"."workflow_steps" ADD "coordinates" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "workflows"."workflow_transitions" ALTER COLUMN "branch" TYPE character varying(64)`,
    );
    await queryRunner.query(
      `ALTER TABLE "workflows"."workflow_step_runs" ALTER COLUMN "outcome" TYPE character varying(64)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "workflows"."workflow_step_runs" ALTER COLUMN "outcome" TYPE character varying(40)`,
    );
    await queryRunner.query(
      `ALTER TABLE "workflows"."workflow_transitions" ALTER COLUMN "branch" TYPE character varying(10)`,
    );
    await queryRunner.query(`ALTER TABLE "workflows"."workflow_steps" DROP COLUMN "coordinates"`);
  }
}
