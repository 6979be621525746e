import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TemplatesEmailsDelivery1795269015065 implements MigrationInterface {
  name = 'TemplatesEmailsDelivery1795269015065';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sending"."delivery_notices" ("id" character varying(200) NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cd6dfc878ce90ff1b0a18896d04" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "sending"."emails" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "contact_id" character varying(40) NOT NULL, "to_email" character varying(320) NOT NULL, "to_name" character varying(200), "from_email" character varying(320) NOT NULL, "from_name" character varying(200), "reply_to" character varying(320), "subject" character varying(998) NOT NULL, "html" text NOT NULL, "text" text NOT NULL, "headers" jsonb NOT NULL DEFAULT '{}', "attachments" jsonb NOT NULL DEFAULT '[]', "template_id" character varying(40), "type" character varying(16) NOT NULL, "origin" character varying(16) NOT NULL DEFAULT 'api', "priority" smallint NOT NULL DEFAULT '0', "status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "lease_until" TIMESTAMP WITH TIME ZONE, "handoff_at" TIMESTAMP WITH TIME ZONE, "message_id" character varying(255) NOT NULL, "error" text, "sent_at" TIMESTAMP WITH TIME ZONE, "opened_at" TIMESTAMP WITH TIME ZONE, "clicked_at" TIMESTAMP WITH TIME ZONE, "bounced_at" TIMESTAMP WITH TIME ZONE, "complained_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a54dcebef8d05dca7e839749571" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "emails_leased" ON "sending"."emails"  ("lease_until") WHERE status = 'sending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "emails_due" ON "sending"."emails"  ("priority", "next_attempt_at") WHERE status = 'queued'`,
    );
    await queryRunner.query(`CREATE INDEX "emails_message_id" ON "sending"."emails"  ("message_id") `);
    await queryRunner.query(
      `CREATE INDEX "emails_project_created" ON "sending"."emails"  ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "sending"."suppressions" ("project_id" character varying(40) NOT NULL, "email" character varying(320) NOT NULL, "reason" character varying(16) NOT NULL, "detail" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5271ee2cddeefcedfa8ce71b7f0" PRIMARY KEY ("project_id", "email"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "sending"."idempotency_keys" ("project_id" character varying(40) NOT NULL, "key" character varying(255) NOT NULL, "request_hash" character varying(64) NOT NULL, "response" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b7d758382ccdd4d6c3e0854cb14" PRIMARY KEY ("project_id", "key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "sending"."sender_domains" ("domain_id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "domain" character varying(253) NOT NULL, "verified" boolean NOT NULL, "dkim_selector" character varying(63), "dkim_private_key_sealed" text, "event_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a0a9a48555544b657f97d8fb167" PRIMARY KEY ("domain_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "sender_domains_project_domain" ON "sending"."sender_domains"  ("project_id", "domain") `,
    );
    await queryRunner.query(
      `CREATE TABLE "sending"."templates" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "name" character varying(200) NOT NULL, "subject" character varying(998) NOT NULL, "body" text NOT NULL, "from_email" character varying(320), "from_name" character varying(200), "reply_to" character varying(320), "type" character varying(16) NOT NULL DEFAULT 'transactional', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_515948649ce0bbbe391de702ae5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "templates_project_created" ON "sending"."templates"  ("project_id", "created_at") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "sending"."templates_project_created"`);
    await queryRunner.query(`DROP TABLE "sending"."templates"`);
    await queryRunner.query(`DROP INDEX "sending"."sender_domains_project_domain"`);
    await queryRunner.query(`DROP TABLE "sending"."sender_domains"`);
    await queryRunner.query(`DROP TABLE "sending"."idempotency_keys"`);
    await queryRunner.query(`DROP TABLE "sending"."suppressions"`);
    await queryRunner.query(`DROP INDEX "sending"."emails_project_created"`);
    await queryRunner.query(`DROP INDEX "sending"."emails_message_id"`);
    await queryRunner.query(`DROP INDEX "sending"."emails_due"`);
    await queryRunner.query(`DROP INDEX "sending"."emails_leased"`);
    await queryRunner.query(`DROP TABLE "sending"."emails"`);
    await queryRunner.query(`DROP TABLE "sending"."delivery_notices"`);
  }
}
