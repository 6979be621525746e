import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `contact_search`: each contact's project, email and subscription, in a table a third as wide as
 * `contacts`, where contact-list totals are counted (ContactsService.list). Triggers on
 * `contacts` keep it in step with every write, whichever path makes it: set-based per statement
 * for inserts and deletes (transition tables, one INSERT/DELETE per statement however many rows),
 * per row for updates, and only when the email or the subscription changed (the WHEN clause is
 * evaluated without calling the function, so the data patches of /v1/track cost nothing here).
 */
export class ContactSearch1795297532044 implements MigrationInterface {
  name = 'ContactSearch1795297532044';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "contacts"."contact_search" ("project_id" character varying(40) NOT NULL, "email" character varying(320) NOT NULL, "subscribed" boolean NOT NULL, CONSTRAINT "contact_search_pkey" PRIMARY KEY ("project_id", "email"))`,
    );
    await queryRunner.query(`CREATE FUNCTION "contacts"."contact_search_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "contacts"."contact_search" ("project_id", "email", "subscribed") SELECT "project_id", "email", "subscribed" FROM inserted;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION "contacts"."contact_search_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM "contacts"."contact_search" s USING deleted d WHERE s."project_id" = d."project_id" AND s."email" = d."email";
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION "contacts"."contact_search_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE "contacts"."contact_search" SET "project_id" = NEW."project_id", "email" = NEW."email", "subscribed" = NEW."subscribed"
         WHERE "project_id" = OLD."project_id" AND "email" = OLD."email";
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION "contacts"."contact_search_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE "contacts"."contact_search";
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER "contact_search_inserted" AFTER INSERT ON "contacts"."contacts" REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "contacts"."contact_search_inserted"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "contact_search_deleted" AFTER DELETE ON "contacts"."contacts" REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "contacts"."contact_search_deleted"()`,
    );
    await queryRunner.query(`CREATE TRIGGER "contact_search_updated" AFTER UPDATE ON "contacts"."contacts" FOR EACH ROW
      WHEN (OLD."email" IS DISTINCT FROM NEW."email" OR OLD."subscribed" IS DISTINCT FROM NEW."subscribed" OR OLD."project_id" IS DISTINCT FROM NEW."project_id")
      EXECUTE FUNCTION "contacts"."contact_search_updated"()`);
    await queryRunner.query(
      `CREATE TRIGGER "contact_search_truncated" AFTER TRUNCATE ON "contacts"."contacts" FOR EACH STATEMENT EXECUTE FUNCTION "contacts"."contact_search_truncated"()`,
    );
    await queryRunner.query(
      `INSERT INTO "contacts"."contact_search" ("project_id", "email", "subscribed") SELECT "project_id", "email", "subscribed" FROM "contacts"."contacts"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const t of ['inserted', 'deleted', 'updated', 'truncated']) {
      await queryRunner.query(`DROP TRIGGER "contact_search_${t}" ON "contacts"."contacts"`);
      await queryRunner.query(`DROP FUNCTION "contacts"."contact_search_${t}"()`);
    }
    await queryRunner.query(`DROP TABLE "contacts"."contact_search"`);
  }
}
