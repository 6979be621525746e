import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DomainsDkimVerification1795268909815 implements MigrationInterface {
  name = 'DomainsDkimVerification1795268909815';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "domains"."jobs" ("id" character varying(60) NOT NULL, "queue" character varying(100) NOT NULL, "payload" jsonb NOT NULL DEFAULT '{}', "state" character varying(12) NOT NULL DEFAULT 'queued', "attempts" integer NOT NULL DEFAULT '0', "max_attempts" integer NOT NULL DEFAULT '5', "run_after" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locked_by" character varying(100), "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cf0a6c42b72fcc7f7c237def345" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_lease_idx" ON "domains"."jobs"  ("locked_until") WHERE "state" = 'running'`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_claim_idx" ON "domains"."jobs"  ("queue", "run_after") WHERE "state" = 'queued'`,
    );
    await queryRunner.query(
      `CREATE TABLE "domains"."domains" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "domain" character varying(253) NOT NULL, "status" character varying(12) NOT NULL DEFAULT 'pending', "verification_token" character varying(64) NOT NULL, "dkim_selector" character varying(63) NOT NULL, "dkim_public_key" text NOT NULL, "dkim_private_key_sealed" text NOT NULL, "checks" jsonb, "last_checked_at" TIMESTAMP WITH TIME ZONE, "verified_at" TIMESTAMP WITH TIME ZONE, "check_seq" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_05a6b087662191c2ea7f7ddfc4d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "domains_project_domain_key" ON "domains"."domains"  ("project_id", "domain") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "domains"."domains_project_domain_key"`);
    await queryRunner.query(`DROP TABLE "domains"."domains"`);
    await queryRunner.query(`DROP INDEX "domains"."jobs_claim_idx"`);
    await queryRunner.query(`DROP INDEX "domains"."jobs_lease_idx"`);
    await queryRunner.query(`DROP TABLE "domains"."jobs"`);
  }
}
