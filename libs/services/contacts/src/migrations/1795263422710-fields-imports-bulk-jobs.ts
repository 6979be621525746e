import type { MigrationInterface, QueryRunner } from 'typeorm';

export class FieldsImportsBulkJobs1795263422710 implements MigrationInterface {
  name = 'FieldsImportsBulkJobs1795263422710';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(
      `CREATE INDEX "contacts_email_trgm_idx" ON "contacts"."contacts" USING gin ("email" gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE TABLE "contacts"."jobs" ("id" character varying(60) NOT NULL, "queue" character varying(100) NOT NULL, "payload" jsonb NOT NULL DEFAULT '{}', "state" character varying(12) NOT NULL DEFAULT 'queued', "attempts" integer NOT NULL DEFAULT '0', "max_attempts" integer NOT NULL DEFAULT '5', "run_after" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locked_by" character varying(100), "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cf0a6c42b72fcc7f7c237def345" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_lease_idx" ON "contacts"."jobs"  ("locked_until") WHERE "state" = 'running'`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_claim_idx" ON "contacts"."jobs"  ("queue", "run_after") WHERE "state" = 'queued'`,
    );
    await queryRunner.query(
      `CREATE TABLE "contacts"."bulk_jobs" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "action" character varying(12) NOT NULL, "contact_ids" jsonb NOT NULL, "status" character varying(12) NOT NULL DEFAULT 'queued', "succeeded" integer NOT NULL DEFAULT '0', "unchanged" integer NOT NULL DEFAULT '0', "failed" integer NOT NULL DEFAULT '0', "errors" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_ce068dac8365125a4ce2f94c23e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "contacts"."contact_fields" ("project_id" character varying(40) NOT NULL, "path" character varying(300) NOT NULL, "type" character varying(10) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9d4b6313bba8befcbf589ad4011" PRIMARY KEY ("project_id", "path"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "contacts"."contact_imports" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "status" character varying(12) NOT NULL DEFAULT 'queued', "file" bytea, "file_name" character varying(255), "total_rows" integer NOT NULL, "processed_rows" integer NOT NULL DEFAULT '0', "imported" integer NOT NULL DEFAULT '0', "updated" integer NOT NULL DEFAULT '0', "skipped" integer NOT NULL DEFAULT '0', "errors" jsonb NOT NULL DEFAULT '[]', "failure" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_4297d9cdb758eea151bbb09dddb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "contact_imports_project_idx" ON "contacts"."contact_imports"  ("project_id", "created_at") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "contacts"."contacts_email_trgm_idx"`);
    await queryRunner.query(`DROP INDEX "contacts"."contact_imports_project_idx"`);
    await queryRunner.query(`DROP TABLE "contacts"."contact_imports"`);
    await queryRunner.query(`DROP TABLE "contacts"."contact_fields"`);
    await queryRunner.query(`DROP TABLE "contacts"."bulk_jobs"`);
    await queryRunner.query(`DROP INDEX "contacts"."jobs_claim_idx"`);
    await queryRunner.query(`DROP INDEX "contacts"."jobs_lease_idx"`);
    await queryRunner.query(`DROP TABLE "contacts"."jobs"`);
  }
}
