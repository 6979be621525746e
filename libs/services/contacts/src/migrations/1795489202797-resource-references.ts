import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `resource_references`: what other services' resources (segments, campaigns, workflows) reference
 * among this service's fields and event names (ReferencesModule, docs/adr/0011-usage-references.md).
 */
export class ResourceReferences1795489202797 implements MigrationInterface {
  name = 'ResourceReferences1795489202797';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "contacts"."resource_references" ("project_id" character varying(40) NOT NULL, "resource_kind" character varying(20) NOT NULL, "resource_id" character varying(60) NOT NULL, "source" character varying(40) NOT NULL, "resource_name" character varying(255) NOT NULL, "revision" bigint NOT NULL, "refs" jsonb NOT NULL DEFAULT '[]', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_59fcbcb5c86aeafbf2e35740266" PRIMARY KEY ("project_id", "resource_kind", "resource_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "resource_references_refs_idx" ON "contacts"."resource_references" USING gin ("refs" jsonb_path_ops)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "contacts"."resource_references"`);
  }
}
