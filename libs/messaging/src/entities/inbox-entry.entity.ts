import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An event a consumer has applied. Inserted in the same transaction as the handler's effects, so
 * an event delivered twice (at-least-once transports) is applied once.
 */
@Entity({ name: 'inbox' })
@Index('inbox_processed_at_idx', ['processedAt'])
export class InboxEntry {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  consumer!: string;

  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ type: 'varchar', length: 255 })
  topic!: string;

  @CreateDateColumn({ name: 'processed_at', type: 'timestamptz' })
  processedAt!: Date;
}
