import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A project's caps per sending category (null: no cap), set by an OWNER or ADMIN or by the payment provider's plan. */
@Entity({ name: 'billing_limits' })
export class BillingLimits {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'integer', nullable: true })
  transactional!: number | null;

  @Column({ type: 'integer', nullable: true })
  campaign!: number | null;

  @Column({ type: 'integer', nullable: true })
  workflow!: number | null;

  /** A user id, or `stripe` when a subscription change set them. */
  @Column({ name: 'updated_by', type: 'varchar', length: 40, nullable: true })
  updatedBy!: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * Consumption of one metered thing in one billing period, projected from events (stored contacts
 * use the fixed GAUGE_PERIOD_START). `notice80At`/`notice100At` record that the owners were emailed.
 */
@Entity({ name: 'billing_usage' })
export class BillingUsage {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ type: 'varchar', length: 20 })
  category!: string;

  @PrimaryColumn({ name: 'period_start', type: 'timestamptz' })
  periodStart!: Date;

  @Column({ name: 'period_end', type: 'timestamptz' })
  periodEnd!: Date;

  @Column({ type: 'integer', default: 0 })
  used!: number;

  /**
   * Emails admitted in the period while the category had a cap (reserved at admission, before they
   * are sent): with `used`, what a cap is checked against, so a burst cannot pass it while its
   * emails are still queued.
   */
  @Column({ type: 'integer', default: 0 })
  admitted!: number;

  @Column({ name: 'notice_80_at', type: 'timestamptz', nullable: true })
  notice80At!: Date | null;

  @Column({ name: 'notice_100_at', type: 'timestamptz', nullable: true })
  notice100At!: Date | null;
}

/** The project's customer and subscription at the payment provider (Stripe), when billing is enabled. */
@Entity({ name: 'billing_accounts' })
@Index('billing_accounts_customer_key', ['customerId'], { unique: true })
export class BillingAccount {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'customer_id', type: 'varchar', length: 255 })
  customerId!: string;

  @Column({ name: 'subscription_id', type: 'varchar', length: 255, nullable: true })
  subscriptionId!: string | null;

  @Column({ name: 'price_id', type: 'varchar', length: 255, nullable: true })
  priceId!: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  status!: string | null;

  @Column({ name: 'period_start', type: 'timestamptz', nullable: true })
  periodStart!: Date | null;

  @Column({ name: 'period_end', type: 'timestamptz', nullable: true })
  periodEnd!: Date | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** A payment-provider webhook event applied (its id), so a redelivery changes nothing. */
@Entity({ name: 'billing_provider_events' })
export class BillingProviderEvent {
  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 255 })
  eventId!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40, nullable: true })
  projectId!: string | null;

  @Column({ type: 'varchar', length: 100 })
  type!: string;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;
}
