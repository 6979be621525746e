import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795260996549 implements MigrationInterface {
  name = 'InitialSchema1795260996549';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "contacts"."dead_letters" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "consumer" character varying(100) NOT NULL, "topic" character varying(255) NOT NULL, "event_id" character varying(100), "message" jsonb NOT NULL, "error" text NOT NULL, "attempts" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_084e63809483fb0a9c48aae607f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "contacts"."inbox" ("consumer" character varying(100) NOT NULL, "event_id" uuid NOT NULL, "topic" character varying(255) NOT NULL, "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_625a303addbbe1f30d3f65ed7fe" PRIMARY KEY ("consumer", "event_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "inbox_processed_at_idx" ON "contacts"."inbox"  ("processed_at") `);
    await queryRunner.query(
      `CREATE TABLE "contacts"."outbox" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "event_id" uuid NOT NULL, "topic" character varying(255) NOT NULL, "message_key" character varying(255) NOT NULL, "envelope" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "published_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_cc0c9e40998e45ecfc5e313429d" UNIQUE ("event_id"), CONSTRAINT "PK_340ab539f309f03bdaa14aa7649" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "outbox_unpublished_idx" ON "contacts"."outbox"  ("id") WHERE "published_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "contacts"."contacts" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "email" character varying(320) NOT NULL, "subscribed" boolean NOT NULL DEFAULT true, "data" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b99cd40cfd66a99f1571f4f72e6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "contacts_project_created_idx" ON "contacts"."contacts"  ("project_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "contacts_project_email_key" ON "contacts"."contacts"  ("project_id", "email") `,
    );
    await queryRunner.query(
      `CREATE TABLE "contacts"."tracked_events" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "contact_id" character varying(40) NOT NULL, "name" character varying(255) NOT NULL, "data" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_10cb6ef6f394b6465cd44a805a4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "tracked_events_contact_idx" ON "contacts"."tracked_events"  ("contact_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "tracked_events_project_name_idx" ON "contacts"."tracked_events"  ("project_id", "name") `,
    );
    await queryRunner.query(
      `CREATE INDEX "tracked_events_project_created_idx" ON "contacts"."tracked_events"  ("project_id", "created_at", "id") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "contacts"."tracked_events_project_created_idx"`);
    await queryRunner.query(`DROP INDEX "contacts"."tracked_events_project_name_idx"`);
    await queryRunner.query(`DROP INDEX "contacts"."tracked_events_contact_idx"`);
    await queryRunner.query(`DROP TABLE "contacts"."tracked_events"`);
    await queryRunner.query(`DROP INDEX "contacts"."contacts_project_email_key"`);
    await queryRunner.query(`DROP INDEX "contacts"."contacts_project_created_idx"`);
    await queryRunner.query(`DROP TABLE "contacts"."contacts"`);
    await queryRunner.query(`DROP INDEX "contacts"."outbox_unpublished_idx"`);
    await queryRunner.query(`DROP TABLE "contacts"."outbox"`);
    await queryRunner.query(`DROP INDEX "contacts"."inbox_processed_at_idx"`);
    await queryRunner.query(`DROP TABLE "contacts"."inbox"`);
    await queryRunner.query(`DROP TABLE "contacts"."dead_letters"`);
  }
}
