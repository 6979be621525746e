import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The W3C trace context of the request or event that queued an email (ADR 0019): the delivery
 * worker's SMTP span continues that trace. Nullable, no default: adding it rewrites no row.
 */
export class EmailTraceparent1795943827895 implements MigrationInterface {
  name = 'EmailTraceparent1795943827895';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sending"."emails" ADD "traceparent" character varying(55)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sending"."emails" DROP COLUMN "traceparent"`);
  }
}
