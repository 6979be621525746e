import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A deleted field is gone for every read at once, while its job removes it from the rows
 * (docs/contacts.md, "Deleting a field"): tombstones of deletions in progress, the deletions each
 * contact row has had applied, and the two functions reads and writes use:
 * - `live_data(project, data, applied)`: `data` without the paths of the project's tombstones above
 *   `applied` (one probe of the (project_id, seq) index; nothing to remove unless a deletion runs);
 * - `deletions_seen(project)`: the newest tombstone of the project, which a write records as applied.
 */
export class FieldDeletionTombstones1795489952557 implements MigrationInterface {
  name = 'FieldDeletionTombstones1795489952557';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "contacts"."contact_field_deletions" ("seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "project_id" character varying(40) NOT NULL, "path" character varying(300) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_fd122bd07e6e8d5f01036dc966b" PRIMARY KEY ("seq"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "contact_field_deletions_project_seq_idx" ON "contacts"."contact_field_deletions"  ("project_id", "seq") `,
    );
    await queryRunner.query(`ALTER TABLE "contacts"."contacts" ADD "deletions_applied" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`CREATE FUNCTION "contacts"."live_data"(p_project varchar, p_data jsonb, p_applied bigint)
      RETURNS jsonb LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
      DECLARE
        live jsonb := p_data;
        deleted record;
      BEGIN
        FOR deleted IN SELECT path FROM "contacts"."contact_field_deletions"
                        WHERE project_id = p_project AND seq > p_applied LOOP
          live := live #- string_to_array(regexp_replace(deleted.path, '^data\\.', ''), '.');
        END LOOP;
        RETURN live;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION "contacts"."deletions_seen"(p_project varchar)
      RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE AS $$
        SELECT coalesce(max(seq), 0) FROM "contacts"."contact_field_deletions" WHERE project_id = p_project
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "contacts"."deletions_seen"(varchar)`);
    await queryRunner.query(`DROP FUNCTION "contacts"."live_data"(varchar, jsonb, bigint)`);
    await queryRunner.query(`ALTER TABLE "contacts"."contacts" DROP COLUMN "deletions_applied"`);
    await queryRunner.query(`DROP INDEX "contacts"."contact_field_deletions_project_seq_idx"`);
    await queryRunner.query(`DROP TABLE "contacts"."contact_field_deletions"`);
  }
}
