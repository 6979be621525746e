import type { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowUpdateKeys1795510828715 implements MigrationInterface {
  name = 'WorkflowUpdateKeys1795510828715';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "contacts"."contact_update_keys" ("project_id" character varying(40) NOT NULL, "key" character varying(128) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_36bb2faa3ecb10c38ac04f1ba0e" PRIMARY KEY ("project_id", "key"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "contacts"."contact_update_keys"`);
  }
}
