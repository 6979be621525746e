import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `members_as_of`: the instant a dynamic segment's stored members were last evaluated whole (its
 * last compute or sweep). A segment whose filter changes with time alone answers counts and pages
 * from its stored members while they are at most two sweep intervals old (docs/segments.md).
 */
export class MembersAsOf1795800000000 implements MigrationInterface {
  name = 'MembersAsOf1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "segments"."segments" ADD "members_as_of" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "segments"."segments" DROP COLUMN "members_as_of"`);
  }
}
