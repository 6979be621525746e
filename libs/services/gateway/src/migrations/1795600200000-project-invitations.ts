import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ProjectInvitations1795600200000 implements MigrationInterface {
  name = 'ProjectInvitations1795600200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "gateway"."project_invitations" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "email" character varying(320) NOT NULL, "role" character varying(10) NOT NULL, "invited_by" character varying(40) NOT NULL, "token_hash" character(64), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, "accepted_by" character varying(40), "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_bddf504e527c1c64289e2c9cfd8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "project_invitations_token_key" ON "gateway"."project_invitations"  ("token_hash")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "project_invitations_pending_key" ON "gateway"."project_invitations"  ("project_id", "email") WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "gateway"."project_invitations_pending_key"`);
    await queryRunner.query(`DROP INDEX "gateway"."project_invitations_token_key"`);
    await queryRunner.query(`DROP TABLE "gateway"."project_invitations"`);
  }
}
