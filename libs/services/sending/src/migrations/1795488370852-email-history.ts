import type { MigrationInterface, QueryRunner } from 'typeorm';

export class EmailHistory1795488370852 implements MigrationInterface {
  name = 'EmailHistory1795488370852';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sending"."email_events" ("event_id" character varying(64) NOT NULL, "project_id" character varying(40) NOT NULL, "email_id" character varying(40) NOT NULL, "type" character varying(16) NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "data" jsonb NOT NULL DEFAULT '{}', CONSTRAINT "PK_83db61b0b498b5115d2751c6019" PRIMARY KEY ("event_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "email_events_email_occurred" ON "sending"."email_events"  ("email_id", "occurred_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "emails_project_contact_created" ON "sending"."emails"  ("project_id", "contact_id", "created_at") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "sending"."emails_project_contact_created"`);
    await queryRunner.query(`DROP INDEX "sending"."email_events_email_occurred"`);
    await queryRunner.query(`DROP TABLE "sending"."email_events"`);
  }
}
