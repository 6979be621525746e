import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type EndpointStatus = 'active' | 'failing';

/**
 * A project's webhook endpoint: where events of the types it subscribes to are delivered, signed
 * with its secret (sealed at rest; a rotated one keeps signing beside the new until
 * `previous_secret_until`). `status` is `failing` from the moment one of its deliveries is dead until
 * one succeeds again.
 */
@Entity({ name: 'endpoints' })
@Index('endpoints_project_created_idx', ['projectId', 'createdAt', 'id'])
export class Endpoint {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description!: string | null;

  /** Event types of WEBHOOK_EVENTS (@herald/contracts), at least one. */
  @Column({ name: 'event_types', type: 'varchar', length: 100, array: true })
  eventTypes!: string[];

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ type: 'varchar', length: 12, default: 'active' })
  status!: EndpointStatus;

  /** Since when its status is `failing` (the first dead delivery since it was last active). */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  /** `sealSecret(whsec_…)`: never stored in the clear. */
  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed!: string;

  /** The secret before the last rotation, still signing until `previous_secret_until`. */
  @Column({ name: 'previous_secret_sealed', type: 'text', nullable: true })
  previousSecretSealed!: string | null;

  @Column({ name: 'previous_secret_until', type: 'timestamptz', nullable: true })
  previousSecretUntil!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
