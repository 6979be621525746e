import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AccountsProjectsApiKeys1795262379830 implements MigrationInterface {
  name = 'AccountsProjectsApiKeys1795262379830';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "gateway"."account_tokens" ("id" character varying(40) NOT NULL, "user_id" character varying(40) NOT NULL, "purpose" character varying(20) NOT NULL, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5e3640c493cc6206a44b885e6a9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "account_tokens_user_idx" ON "gateway"."account_tokens"  ("user_id", "purpose") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "account_tokens_hash_key" ON "gateway"."account_tokens"  ("token_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "gateway"."users" ("id" character varying(40) NOT NULL, "email" character varying(320) NOT NULL, "name" character varying(200), "password_hash" character varying(255) NOT NULL, "session_version" integer NOT NULL DEFAULT '1', "email_verified_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_key" ON "gateway"."users"  ("email") `);
    await queryRunner.query(
      `CREATE TABLE "gateway"."api_keys" ("id" character varying(40) NOT NULL, "project_id" character varying(40) NOT NULL, "kind" character varying(10) NOT NULL, "key_hash" character(64) NOT NULL, "prefix" character varying(20) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "api_keys_project_idx" ON "gateway"."api_keys"  ("project_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "api_keys_hash_key" ON "gateway"."api_keys"  ("key_hash") `);
    await queryRunner.query(
      `CREATE TABLE "gateway"."memberships" ("project_id" character varying(40) NOT NULL, "user_id" character varying(40) NOT NULL, "role" character varying(10) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_246faae84ffe34c04db7c91ae50" PRIMARY KEY ("project_id", "user_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "memberships_user_idx" ON "gateway"."memberships"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "gateway"."projects" ("id" character varying(40) NOT NULL, "name" character varying(200) NOT NULL, "disabled" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6271df0a7aed1d6c0691ce6ac50" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "gateway"."project_setup" ("project_id" character varying(40) NOT NULL, "first_contact_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_154a04059034572551e0606b7df" PRIMARY KEY ("project_id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "gateway"."project_setup"`);
    await queryRunner.query(`DROP TABLE "gateway"."projects"`);
    await queryRunner.query(`DROP INDEX "gateway"."memberships_user_idx"`);
    await queryRunner.query(`DROP TABLE "gateway"."memberships"`);
    await queryRunner.query(`DROP INDEX "gateway"."api_keys_hash_key"`);
    await queryRunner.query(`DROP INDEX "gateway"."api_keys_project_idx"`);
    await queryRunner.query(`DROP TABLE "gateway"."api_keys"`);
    await queryRunner.query(`DROP INDEX "gateway"."users_email_key"`);
    await queryRunner.query(`DROP TABLE "gateway"."users"`);
    await queryRunner.query(`DROP INDEX "gateway"."account_tokens_hash_key"`);
    await queryRunner.query(`DROP INDEX "gateway"."account_tokens_user_idx"`);
    await queryRunner.query(`DROP TABLE "gateway"."account_tokens"`);
  }
}
