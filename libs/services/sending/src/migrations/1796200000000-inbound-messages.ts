import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Inbound mail (docs/inbound.md): each message the SMTP listener took for a project, listed newest
 * first per project and per contact, kept once per Message-ID and project; and the look-up of the
 * projects a recipient's domain is verified in (`sender_domains` by domain).
 */
export class InboundMessages1796200000000 implements MigrationInterface {
  name = 'InboundMessages1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sending"."inbound_messages" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "contact_id" character varying(40), "from_email" character varying(320), "from_name" character varying(200), "envelope_from" character varying(320) NOT NULL, "recipients" jsonb NOT NULL, "subject" character varying(998), "message_id" character varying(255), "text" text, "html" text, "headers" jsonb NOT NULL, "attachments" jsonb NOT NULL, "in_reply_to_email_id" character varying(40), "campaign_id" character varying(60), "workflow_id" character varying(60), "size" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4f21d40ad47ab9702cb1ee64590" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "inbound_messages_project_created" ON "sending"."inbound_messages" ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "inbound_messages_project_contact_created" ON "sending"."inbound_messages" ("project_id", "contact_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "inbound_messages_project_message_id" ON "sending"."inbound_messages" ("project_id", "message_id") `,
    );
    await queryRunner.query(`CREATE INDEX "sender_domains_domain" ON "sending"."sender_domains" ("domain") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "sending"."sender_domains_domain"`);
    await queryRunner.query(`DROP INDEX "sending"."inbound_messages_project_message_id"`);
    await queryRunner.query(`DROP INDEX "sending"."inbound_messages_project_contact_created"`);
    await queryRunner.query(`DROP INDEX "sending"."inbound_messages_project_created"`);
    await queryRunner.query(`DROP TABLE "sending"."inbound_messages"`);
  }
}
