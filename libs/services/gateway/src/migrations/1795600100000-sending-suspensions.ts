import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SendingSuspensions1795600100000 implements MigrationInterface {
  name = 'SendingSuspensions1795600100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "gateway"."sending_suspensions" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "reason" character varying(30) NOT NULL, "bounce_rate" double precision NOT NULL, "complaint_rate" double precision NOT NULL, "sends" integer NOT NULL, "suspended_at" TIMESTAMP WITH TIME ZONE NOT NULL, "lifted_at" TIMESTAMP WITH TIME ZONE, "lifted_by" character varying(40), CONSTRAINT "PK_ad6e86e69f3b3cafb6310e7166d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "sending_suspensions_project_idx" ON "gateway"."sending_suspensions"  ("project_id", "suspended_at")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "sending_suspensions_active_key" ON "gateway"."sending_suspensions"  ("project_id") WHERE "lifted_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "gateway"."sending_suspensions_active_key"`);
    await queryRunner.query(`DROP INDEX "gateway"."sending_suspensions_project_idx"`);
    await queryRunner.query(`DROP TABLE "gateway"."sending_suspensions"`);
  }
}
