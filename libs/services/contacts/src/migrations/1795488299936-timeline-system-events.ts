import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The contact's timeline holds system events beside tracked ones: `system` marks them (stats, names
 * and delete-by-name leave them out), `source_event_id` is the event they were projected from,
 * unique so that a replayed topic adds nothing.
 */
export class TimelineSystemEvents1795488299936 implements MigrationInterface {
  name = 'TimelineSystemEvents1795488299936';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "contacts"."tracked_events" ADD "system" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "contacts"."tracked_events" ADD "source_event_id" uuid`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "tracked_events_source_event_key" ON "contacts"."tracked_events"  ("source_event_id") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "contacts"."tracked_events_source_event_key"`);
    await queryRunner.query(`ALTER TABLE "contacts"."tracked_events" DROP COLUMN "source_event_id"`);
    await queryRunner.query(`ALTER TABLE "contacts"."tracked_events" DROP COLUMN "system"`);
  }
}
