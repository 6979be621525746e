import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

/**
 * One event to deliver to one endpoint (at most one per endpoint and event), with the body it is
 * signed and sent with in every attempt, and what its last attempt saw. `seq` orders a lane's
 * deliveries as their events were applied; `next_attempt_at` is when a pending one is due.
 */
@Entity({ name: 'deliveries' })
@Index('deliveries_id_key', ['id'], { unique: true })
@Index('deliveries_endpoint_event_key', ['endpointId', 'eventId'], { unique: true })
@Index('deliveries_lane_pending_idx', ['endpointId', 'lane', 'seq'], { where: `"status" = 'pending'` })
@Index('deliveries_endpoint_created_idx', ['endpointId', 'createdAt', 'id'])
@Index('deliveries_project_idx', ['projectId'])
@Index('deliveries_finished_created_idx', ['createdAt'], { where: `"status" <> 'pending'` })
export class Delivery {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  seq!: string;

  /** The public id, `whd_…`. */
  @Column({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'endpoint_id', type: 'varchar', length: 40 })
  endpointId!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  /** The event's id: `webhook-id` and the body's `id`. */
  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ name: 'event_type', type: 'varchar', length: 100 })
  eventType!: string;

  /** The JSON body, as signed and sent in every attempt. */
  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'smallint' })
  lane!: number;

  @Column({ type: 'varchar', length: 12, default: 'pending' })
  status!: DeliveryStatus;

  /** Attempts since the delivery was created or last replayed. */
  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt!: Date | null;

  /** The last attempt's HTTP status; null when no answer came (timeout, refused, network error). */
  @Column({ name: 'response_status', type: 'int', nullable: true })
  responseStatus!: number | null;

  /** The first 1,024 bytes of the last answer's body. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody!: string | null;

  @Column({ name: 'latency_ms', type: 'int', nullable: true })
  latencyMs!: number | null;

  /** Why the last attempt failed without an answer. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
