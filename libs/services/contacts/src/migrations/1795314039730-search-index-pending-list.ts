import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trigram index on contacts' emails (search) takes new entries into its pending list, which the
 * insert that fills it past `gin_pending_list_limit` (4 MB by default) then merges into the index
 * on its own time: under /v1/track's new contacts, one track write every five seconds or so took
 * 50–100 ms longer (PostgreSQL's slow-statement log), and every request behind it waited. With a
 * 256 kB list the merges are sixteen times as frequent and as many times smaller: in the same
 * bench no track write took 25 ms (the log's threshold). The entries still arrive in batches.
 */
export class SearchIndexPendingList1795314039730 implements MigrationInterface {
  name = 'SearchIndexPendingList1795314039730';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX "contacts"."contacts_email_trgm_idx" SET (gin_pending_list_limit = 256)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX "contacts"."contacts_email_trgm_idx" RESET (gin_pending_list_limit)`);
  }
}
