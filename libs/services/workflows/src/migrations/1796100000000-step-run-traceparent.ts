import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The W3C trace context of what entered a step run, or of the event that resumed it (ADR 0019): the
 * runner runs the step in that trace, so a SEND_EMAIL's call to sending and the SMTP hand-off join
 * the trace of the event that started the execution. Nullable, no default: adding it rewrites no row.
 */
export class StepRunTraceparent1796100000000 implements MigrationInterface {
  name = 'StepRunTraceparent1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "workflows"."workflow_step_runs" ADD "traceparent" character varying(55)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "workflows"."workflow_step_runs" DROP COLUMN "traceparent"`);
  }
}
