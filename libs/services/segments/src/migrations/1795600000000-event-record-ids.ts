import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The contacts record id of each tracked event in the read model (`event.tracked`'s `eventRecordId`),
 * unique per project when known: the backfill inserts a contact's events idempotently, beside those
 * the live path already applied (docs/segments.md, "Backfill"). Rows from before have none.
 */
export class EventRecordIds1795600000000 implements MigrationInterface {
  name = 'EventRecordIds1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "segments"."segment_contact_events" ADD "event_record_id" character varying(40)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "segment_contact_events_record" ON "segments"."segment_contact_events" ("project_id", "event_record_id") WHERE "event_record_id" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "segments"."segment_contact_events_record"`);
    await queryRunner.query(`ALTER TABLE "segments"."segment_contact_events" DROP COLUMN "event_record_id"`);
  }
}
