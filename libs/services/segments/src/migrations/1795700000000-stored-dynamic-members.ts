import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every dynamic segment keeps its members in `segment_memberships` (ADR 0013); `materialized` says
 * that a segment's stored members are complete. Static segments and tracked dynamic ones already
 * were; the untracked dynamic segments of before are listed live until the sweep's next pass has
 * computed their members (silently).
 */
export class StoredDynamicMembers1795700000000 implements MigrationInterface {
  name = 'StoredDynamicMembers1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "segments"."segments" ADD "materialized" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `UPDATE "segments"."segments" SET "materialized" = true WHERE "type" = 'STATIC' OR "track_membership"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM "segments"."segment_memberships" ms USING "segments"."segments" s
        WHERE s."id" = ms."segment_id" AND s."type" = 'DYNAMIC' AND NOT s."track_membership"`,
    );
    await queryRunner.query(`ALTER TABLE "segments"."segments" DROP COLUMN "materialized"`);
  }
}
