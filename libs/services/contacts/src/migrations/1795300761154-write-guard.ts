import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `write_guard(ok)`: raises serialization_failure unless `ok` is true. The last step of the
 * single-statement writes of /v1/track (SingleStatementWrite): their CTEs have already run when it
 * checks that every row they were computed from was as read, and raising undoes all of them.
 */
export class WriteGuard1795300761154 implements MigrationInterface {
  name = 'WriteGuard1795300761154';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION "contacts"."write_guard"(ok boolean) RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN
        IF ok IS NOT TRUE THEN
          RAISE EXCEPTION 'rows changed since the write was computed' USING ERRCODE = 'serialization_failure';
        END IF;
        RETURN true;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "contacts"."write_guard"(boolean)`);
  }
}
