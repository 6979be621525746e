import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An event a consumer gave up on after its retries; also published to `<topic>.dlq`. */
@Entity({ name: 'dead_letters' })
export class DeadLetter {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  consumer!: string;

  @Column({ type: 'varchar', length: 255 })
  topic!: string;

  @Column({ name: 'event_id', type: 'varchar', length: 100, nullable: true })
  eventId!: string | null;

  /** The envelope as received (or the raw message text when it could not be decoded). */
  @Column({ type: 'jsonb' })
  message!: unknown;

  @Column({ type: 'text' })
  error!: string;

  @Column({ type: 'int' })
  attempts!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
