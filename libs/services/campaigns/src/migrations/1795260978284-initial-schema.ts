import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795260978284 implements MigrationInterface {
  name = 'InitialSchema1795260978284';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "campaigns"."dead_letters" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "consumer" character varying(100) NOT NULL, "topic" character varying(255) NOT NULL, "event_id" character varying(100), "message" jsonb NOT NULL, "error" text NOT NULL, "attempts" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_084e63809483fb0a9c48aae607f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "campaigns"."inbox" ("consumer" character varying(100) NOT NULL, "event_id" uuid NOT NULL, "topic" character varying(255) NOT NULL, "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_625a303addbbe1f30d3f65ed7fe" PRIMARY KEY ("consumer", "event_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "inbox_processed_at_idx" ON "campaigns"."inbox"  ("processed_at") `);
    await queryRunner.query(
      `CREATE TABLE "campaigns"."outbox" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "event_id" uuid NOT NULL, "topic" character varying(255) NOT NULL, "message_key" character varying(255) NOT NULL, "envelope" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "published_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_cc0c9e40998e45ecfc5e313429d" UNIQUE ("event_id"), CONSTRAINT "PK_340ab539f309f03bdaa14aa7649" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "outbox_unpublished_idx" ON "campaigns"."outbox"  ("id") WHERE "published_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "campaigns"."outbox_unpublished_idx"`);
    await queryRunner.query(`DROP TABLE "campaigns"."outbox"`);
    await queryRunner.query(`DROP INDEX "campaigns"."inbox_processed_at_idx"`);
    await queryRunner.query(`DROP TABLE "campaigns"."inbox"`);
    await queryRunner.query(`DROP TABLE "campaigns"."dead_letters"`);
  }
}
