import type { MigrationInterface, QueryRunner } from 'typeorm';

export class BillingCapsConsumption1795600000000 implements MigrationInterface {
  name = 'BillingCapsConsumption1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "gateway"."billing_limits" ("project_id" character varying(40) NOT NULL, "transactional" integer, "campaign" integer, "workflow" integer, "updated_by" character varying(40), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_82ea2e38392866ab04ea4d5a6c2" PRIMARY KEY ("project_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "gateway"."billing_usage" ("project_id" character varying(40) NOT NULL, "category" character varying(20) NOT NULL, "period_start" TIMESTAMP WITH TIME ZONE NOT NULL, "period_end" TIMESTAMP WITH TIME ZONE NOT NULL, "used" integer NOT NULL DEFAULT '0', "admitted" integer NOT NULL DEFAULT '0', "notice_80_at" TIMESTAMP WITH TIME ZONE, "notice_100_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_23ee0909c0475adcf0714d54e57" PRIMARY KEY ("project_id", "category", "period_start"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "gateway"."metered_emails" ("email_id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "category" character varying(20) NOT NULL, "sent_at" TIMESTAMP WITH TIME ZONE NOT NULL, "sender_domain" character varying(253), "bounced_at" TIMESTAMP WITH TIME ZONE, "complained_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a0d9b744e6e98dfbee059a52b04" PRIMARY KEY ("email_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "metered_emails_recent_idx" ON "gateway"."metered_emails"  ("project_id", "sent_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "gateway"."billing_accounts" ("project_id" character varying(40) NOT NULL, "customer_id" character varying(255) NOT NULL, "subscription_id" character varying(255), "price_id" character varying(255), "status" character varying(40), "period_start" TIMESTAMP WITH TIME ZONE, "period_end" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f9111966c405f8669479a94631a" PRIMARY KEY ("project_id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "billing_accounts_customer_key" ON "gateway"."billing_accounts"  ("customer_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "gateway"."billing_provider_events" ("event_id" character varying(255) NOT NULL, "project_id" character varying(40), "type" character varying(100) NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4b2e2d7fb9058cb3cba4ae8d4aa" PRIMARY KEY ("event_id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "gateway"."billing_provider_events"`);
    await queryRunner.query(`DROP INDEX "gateway"."billing_accounts_customer_key"`);
    await queryRunner.query(`DROP TABLE "gateway"."billing_accounts"`);
    await queryRunner.query(`DROP INDEX "gateway"."metered_emails_recent_idx"`);
    await queryRunner.query(`DROP TABLE "gateway"."metered_emails"`);
    await queryRunner.query(`DROP TABLE "gateway"."billing_usage"`);
    await queryRunner.query(`DROP TABLE "gateway"."billing_limits"`);
  }
}
