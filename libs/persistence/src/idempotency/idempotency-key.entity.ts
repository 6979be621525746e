import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * An `Idempotency-Key` of a public write (/v1/send in sending's schema, /v1/track in contacts'): the
 * request it named and, once done, the answer it got. Each service that takes the header registers
 * this entity in its own schema (`idempotency_keys`).
 */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKey {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key!: string;

  /** SHA-256 of the request body. */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash!: string;

  /** Null while the first request is still running; `json`, not `jsonb`: replayed byte for byte, keys in their order. */
  @Column({ type: 'json', nullable: true })
  response!: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
