import type { MigrationInterface, QueryRunner } from 'typeorm';

/** How a template's body is written: `html` (every template so far), or `markdown` converted to HTML when rendered. */
export class TemplateBodyFormat1795922754956 implements MigrationInterface {
  name = 'TemplateBodyFormat1795922754956';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sending"."templates" ADD "format" character varying(16) NOT NULL DEFAULT 'html'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sending"."templates" DROP COLUMN "format"`);
  }
}
