import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795260984243 implements MigrationInterface {
  name = 'InitialSchema1795260984243';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "analytics"."dead_letters" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "consumer" character varying(100) NOT NULL, "topic" character varying(255) NOT NULL, "event_id" character varying(100), "message" jsonb NOT NULL, "error" text NOT NULL, "attempts" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_084e63809483fb0a9c48aae607f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."inbox" ("consumer" character varying(100) NOT NULL, "event_id" uuid NOT NULL, "topic" character varying(255) NOT NULL, "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_625a303addbbe1f30d3f65ed7fe" PRIMARY KEY ("consumer", "event_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "inbox_processed_at_idx" ON "analytics"."inbox"  ("processed_at") `);
    await queryRunner.query(
      `CREATE TABLE "analytics"."outbox" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "event_id" uuid NOT NULL, "topic" character varying(255) NOT NULL, "message_key" character varying(255) NOT NULL, "envelope" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "published_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_cc0c9e40998e45ecfc5e313429d" UNIQUE ("event_id"), CONSTRAINT "PK_340ab539f309f03bdaa14aa7649" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "outbox_unpublished_idx" ON "analytics"."outbox"  ("id") WHERE "published_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "analytics"."event_counts" ("project_id" character varying(40) NOT NULL, "name" character varying(255) NOT NULL, "count" bigint NOT NULL DEFAULT '0', "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_7e6f2a0cee74dea9873a2e37bb5" PRIMARY KEY ("project_id", "name"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "event_counts_project_count_idx" ON "analytics"."event_counts"  ("project_id", "count") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "analytics"."event_counts_project_count_idx"`);
    await queryRunner.query(`DROP TABLE "analytics"."event_counts"`);
    await queryRunner.query(`DROP INDEX "analytics"."outbox_unpublished_idx"`);
    await queryRunner.query(`DROP TABLE "analytics"."outbox"`);
    await queryRunner.query(`DROP INDEX "analytics"."inbox_processed_at_idx"`);
    await queryRunner.query(`DROP TABLE "analytics"."inbox"`);
    await queryRunner.query(`DROP TABLE "analytics"."dead_letters"`);
  }
}
