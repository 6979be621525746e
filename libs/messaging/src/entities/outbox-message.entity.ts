import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { EventEnvelope } from '@herald/contracts';

/**
 * One event waiting to be published, written in the same transaction as the business change
 * that caused it (transactional outbox). Lives in each service's own schema.
 */
@Entity({ name: 'outbox' })
@Index('outbox_unpublished_idx', ['id'], { where: '"published_at" IS NULL' })
export class OutboxMessage {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ name: 'event_id', type: 'uuid', unique: true })
  eventId!: string;

  @Column({ type: 'varchar', length: 255 })
  topic!: string;

  @Column({ name: 'message_key', type: 'varchar', length: 255 })
  messageKey!: string;

  @Column({ type: 'jsonb' })
  envelope!: EventEnvelope;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;
}
