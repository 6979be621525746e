import type { MigrationInterface, QueryRunner } from 'typeorm';

export class VerificationMailJobs1795489748137 implements MigrationInterface {
  name = 'VerificationMailJobs1795489748137';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "gateway"."jobs" ("id" character varying(60) NOT NULL, "queue" character varying(100) NOT NULL, "payload" jsonb NOT NULL DEFAULT '{}', "state" character varying(12) NOT NULL DEFAULT 'queued', "attempts" integer NOT NULL DEFAULT '0', "max_attempts" integer NOT NULL DEFAULT '5', "run_after" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locked_by" character varying(100), "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cf0a6c42b72fcc7f7c237def345" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_lease_idx" ON "gateway"."jobs"  ("locked_until") WHERE "state" = 'running'`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_claim_idx" ON "gateway"."jobs"  ("queue", "run_after") WHERE "state" = 'queued'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "gateway"."jobs_claim_idx"`);
    await queryRunner.query(`DROP INDEX "gateway"."jobs_lease_idx"`);
    await queryRunner.query(`DROP TABLE "gateway"."jobs"`);
  }
}
