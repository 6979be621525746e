import type { MigrationInterface, QueryRunner } from 'typeorm';

/** /v1/track's Idempotency-Key rows (the shared IdempotencyKey entity of @herald/persistence). */
export class TrackIdempotencyKeys1795946020479 implements MigrationInterface {
  name = 'TrackIdempotencyKeys1795946020479';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "contacts"."idempotency_keys" ("project_id" character varying(40) NOT NULL, "key" character varying(255) NOT NULL, "request_hash" character varying(64) NOT NULL, "response" json, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b7d758382ccdd4d6c3e0854cb14" PRIMARY KEY ("project_id", "key"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "contacts"."idempotency_keys"`);
  }
}
