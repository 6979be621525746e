import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Segments, memberships, the sweep's chain state, jobs, and the read model the filter compiler
 * targets (docs/segments.md). The GIN index on `data` (equality and `in` through `@>`) is not
 * expressible in an entity: hand-added here, `synchronize: false` on the entity.
 */
export class SegmentsReadModel1795492876253 implements MigrationInterface {
  name = 'SegmentsReadModel1795492876253';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "segments"."jobs" ("id" character varying(60) NOT NULL, "queue" character varying(100) NOT NULL, "payload" jsonb NOT NULL DEFAULT '{}', "state" character varying(12) NOT NULL DEFAULT 'queued', "attempts" integer NOT NULL DEFAULT '0', "max_attempts" integer NOT NULL DEFAULT '5', "run_after" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locked_by" character varying(100), "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cf0a6c42b72fcc7f7c237def345" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_lease_idx" ON "segments"."jobs"  ("locked_until") WHERE "state" = 'running'`,
    );
    await queryRunner.query(
      `CREATE INDEX "jobs_claim_idx" ON "segments"."jobs"  ("queue", "run_after") WHERE "state" = 'queued'`,
    );
    await queryRunner.query(
      `CREATE TABLE "segments"."segment_contacts" ("project_id" character varying(40) NOT NULL, "contact_id" character varying(64) NOT NULL, "email" character varying(320) NOT NULL, "subscribed" boolean NOT NULL, "data" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_ff48d6c6aba7bd95ad2aa205ebc" PRIMARY KEY ("project_id", "contact_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "segment_contacts_updated" ON "segments"."segment_contacts"  ("project_id", "updated_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "segment_contacts_created" ON "segments"."segment_contacts"  ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "segment_contacts_email" ON "segments"."segment_contacts"  ("project_id", "email") `,
    );
    await queryRunner.query(
      `CREATE INDEX "segment_contacts_data" ON "segments"."segment_contacts" USING gin ("data" jsonb_path_ops)`,
    );
    await queryRunner.query(
      `CREATE TABLE "segments"."segment_deleted_contacts" ("project_id" character varying(40) NOT NULL, "contact_id" character varying(64) NOT NULL, "deleted_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6069bf9a6ecdeadad50d3fdb52b" PRIMARY KEY ("project_id", "contact_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "segments"."segment_contact_events" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "project_id" character varying(40) NOT NULL, "contact_id" character varying(64) NOT NULL, "name" character varying(255) NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_4823424f6098fa9cbe70c7c4434" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "segment_contact_events_by_name" ON "segments"."segment_contact_events"  ("project_id", "name", "occurred_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "segment_contact_events_lookup" ON "segments"."segment_contact_events"  ("project_id", "contact_id", "name", "occurred_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "segments"."segment_contact_emails" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "project_id" character varying(40) NOT NULL, "contact_id" character varying(64) NOT NULL, "kind" character varying(20) NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5e930219e4b05f1d44515f2cd77" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "segment_contact_emails_by_kind" ON "segments"."segment_contact_emails"  ("project_id", "kind", "occurred_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "segment_contact_emails_lookup" ON "segments"."segment_contact_emails"  ("project_id", "contact_id", "kind", "occurred_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "segments"."segment_field_types" ("project_id" character varying(40) NOT NULL, "field" character varying(300) NOT NULL, "type" character varying(10) NOT NULL, CONSTRAINT "PK_d64f0ae1cc7b4f3104e0cebcc87" PRIMARY KEY ("project_id", "field"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "segments"."segments" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "name" character varying(100) NOT NULL, "description" character varying(500), "type" character varying(10) NOT NULL, "filters" jsonb, "track_membership" boolean NOT NULL DEFAULT false, "member_count" integer NOT NULL DEFAULT '0', "counted_at" TIMESTAMP WITH TIME ZONE, "version" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_beff1eec19679fe8ad4f291f04e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "segments_project_created_idx" ON "segments"."segments"  ("project_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "segments"."segment_memberships" ("project_id" character varying(40) NOT NULL, "segment_id" character varying(40) NOT NULL, "contact_id" character varying(64) NOT NULL, "entered_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_80ecbd4fbdf9c0a92491cf9dffb" PRIMARY KEY ("project_id", "segment_id", "contact_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "segment_memberships_contact_idx" ON "segments"."segment_memberships"  ("project_id", "contact_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "segments"."sweep_state" ("id" integer NOT NULL, "seq" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_1c394cd06d5ee2793415dd8d3a1" PRIMARY KEY ("id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "segments"."sweep_state"`);
    await queryRunner.query(`DROP INDEX "segments"."segment_memberships_contact_idx"`);
    await queryRunner.query(`DROP TABLE "segments"."segment_memberships"`);
    await queryRunner.query(`DROP INDEX "segments"."segments_project_created_idx"`);
    await queryRunner.query(`DROP TABLE "segments"."segments"`);
    await queryRunner.query(`DROP TABLE "segments"."segment_field_types"`);
    await queryRunner.query(`DROP INDEX "segments"."segment_contact_emails_lookup"`);
    await queryRunner.query(`DROP INDEX "segments"."segment_contact_emails_by_kind"`);
    await queryRunner.query(`DROP TABLE "segments"."segment_contact_emails"`);
    await queryRunner.query(`DROP INDEX "segments"."segment_contact_events_lookup"`);
    await queryRunner.query(`DROP INDEX "segments"."segment_contact_events_by_name"`);
    await queryRunner.query(`DROP TABLE "segments"."segment_contact_events"`);
    await queryRunner.query(`DROP TABLE "segments"."segment_deleted_contacts"`);
    await queryRunner.query(`DROP INDEX "segments"."segment_contacts_data"`);
    await queryRunner.query(`DROP INDEX "segments"."segment_contacts_email"`);
    await queryRunner.query(`DROP INDEX "segments"."segment_contacts_created"`);
    await queryRunner.query(`DROP INDEX "segments"."segment_contacts_updated"`);
    await queryRunner.query(`DROP TABLE "segments"."segment_contacts"`);
    await queryRunner.query(`DROP INDEX "segments"."jobs_claim_idx"`);
    await queryRunner.query(`DROP INDEX "segments"."jobs_lease_idx"`);
    await queryRunner.query(`DROP TABLE "segments"."jobs"`);
  }
}
