import type { WireGroup } from '@herald/filters';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn, VersionColumn } from 'typeorm';

export const CAMPAIGN_STATUSES = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
// a campaign's audience is what segments reads (SegmentsCalls)
import type { AudienceType } from '@herald/internal-contracts';

export { AUDIENCE_TYPES, type AudienceType } from '@herald/internal-contracts';

/** A campaign: content, audience, and where it is in its life (docs/campaigns.md). */
@Entity({ name: 'campaigns' })
@Index('campaigns_project_created_idx', ['projectId', 'createdAt', 'id'])
export class Campaign {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description!: string | null;

  @Column({ type: 'varchar', length: 998 })
  subject!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'from_address', type: 'varchar', length: 320 })
  from!: string;

  @Column({ name: 'from_name', type: 'varchar', length: 200, nullable: true })
  fromName!: string | null;

  @Column({ name: 'reply_to', type: 'varchar', length: 320, nullable: true })
  replyTo!: string | null;

  @Column({ name: 'audience_type', type: 'varchar', length: 10 })
  audienceType!: AudienceType;

  @Column({ name: 'segment_id', type: 'varchar', length: 40, nullable: true })
  segmentId!: string | null;

  @Column({ name: 'audience_filter', type: 'jsonb', nullable: true })
  audienceFilter!: WireGroup | null;

  @Column({ name: 'template_id', type: 'varchar', length: 60, nullable: true })
  templateId!: string | null;

  @Column({ type: 'varchar', length: 12 })
  status!: CampaignStatus;

  @Column({ name: 'scheduled_at', type: 'timestamptz', nullable: true })
  scheduledAt!: Date | null;

  /**
   * The send run's number: every send, reschedule and cancel moves it on, and a send job acts only
   * while its own number is current (a stale job of a rescheduled or cancelled campaign does nothing).
   */
  @Column({ name: 'send_seq', type: 'integer', default: 0 })
  sendSeq!: number;

  /** The last contact id resolved into the ledger (the audience is read in contact id order). */
  @Column({ name: 'resolve_cursor', type: 'varchar', length: 64, nullable: true })
  resolveCursor!: string | null;

  /** The whole audience is in the ledger. */
  @Column({ type: 'boolean', default: false })
  resolved!: boolean;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt!: Date | null;

  /**
   * Why it stopped taking batches before its whole audience was sent (docs/billing.md): `billing_limit`
   * (the campaign cap reached) or `sending_suspended` (the project's sending suspended); null otherwise.
   */
  @Column({ name: 'stopped_reason', type: 'varchar', length: 40, nullable: true })
  stoppedReason!: string | null;

  /** Grows with every change: the revision of the usage references it publishes. */
  @VersionColumn()
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

export const RECIPIENT_STATUSES = ['pending', 'queued', 'sent', 'failed', 'skipped'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
export const SKIP_REASONS = [
  'unsubscribed',
  'suppressed',
  'invalid_address',
  'duplicate',
  'cancelled',
  'billing_limit',
  'sending_suspended',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * The delivery ledger: one row per intended recipient of a campaign, written when the audience is
 * resolved, ending in exactly one of sent, skipped (with a reason) or failed (with the error).
 * One address gets one row that can be sent: a second contact with the same normalised address is
 * `skipped: duplicate` (the partial unique index, created by the migration, holds it).
 */
@Entity({ name: 'campaign_recipients' })
@Index('campaign_recipients_seq', ['campaignId', 'seq'], { unique: true })
@Index('campaign_recipients_address', { synchronize: false })
@Index('campaign_recipients_open', { synchronize: false })
export class CampaignRecipient {
  @PrimaryColumn({ name: 'campaign_id', type: 'varchar', length: 40 })
  campaignId!: string;

  @PrimaryColumn({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  /** Position in the audience (contact id order): the ledger's listing and hand-off order. */
  @Column({ type: 'bigint' })
  seq!: string;

  /** The normalised address. */
  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 10 })
  status!: RecipientStatus;

  @Column({ type: 'varchar', length: 20, nullable: true })
  reason!: SkipReason | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'email_id', type: 'varchar', length: 60, nullable: true })
  emailId!: string | null;

  /** The contact as resolved (what sending renders with), kept until it is handed over. */
  @Column({ type: 'jsonb', nullable: true })
  contact!: Record<string, unknown> | null;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  @Column({ name: 'opened_at', type: 'timestamptz', nullable: true })
  openedAt!: Date | null;

  @Column({ name: 'clicked_at', type: 'timestamptz', nullable: true })
  clickedAt!: Date | null;

  @Column({ name: 'bounced_at', type: 'timestamptz', nullable: true })
  bouncedAt!: Date | null;

  @Column({ name: 'complained_at', type: 'timestamptz', nullable: true })
  complainedAt!: Date | null;

  /** When the recipient unsubscribed through this campaign's link (`contact.unsubscribed` naming the campaign). */
  @Column({ name: 'unsubscribed_at', type: 'timestamptz', nullable: true })
  unsubscribedAt!: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
