import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `resource_references`: what campaigns and workflows reference among segments (ReferencesModule,
 * docs/adr/0011-usage-references.md); `DELETE /segments/:id` answers 409 `SEGMENT_IN_USE` from it.
 */
export class SegmentsResourceReferences1795560000000 implements MigrationInterface {
  name = 'SegmentsResourceReferences1795560000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "segments"."resource_references" ("project_id" character varying(40) NOT NULL, "resource_kind" character varying(20) NOT NULL, "resource_id" character varying(60) NOT NULL, "source" character varying(40) NOT NULL, "resource_name" character varying(255) NOT NULL, "revision" bigint NOT NULL, "refs" jsonb NOT NULL DEFAULT '[]', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_segments_resource_references" PRIMARY KEY ("project_id", "resource_kind", "resource_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "resource_references_refs_idx" ON "segments"."resource_references" USING gin ("refs" jsonb_path_ops)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "segments"."resource_references"`);
  }
}
