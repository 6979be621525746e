import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One outgoing email as billing and reputation see it: inserted by its first `email.sent` or
 * `email.bounced` (the natural key makes counting it idempotent), marked by bounces and complaints.
 */
@Entity({ name: 'metered_emails' })
@Index('metered_emails_recent_idx', ['projectId', 'sentAt'])
export class MeteredEmail {
  @PrimaryColumn({ name: 'email_id', type: 'varchar', length: 40 })
  emailId!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 20 })
  category!: string;

  @Column({ name: 'sent_at', type: 'timestamptz' })
  sentAt!: Date;

  /** The sender address's domain, when the event named it (reputation per domain). */
  @Column({ name: 'sender_domain', type: 'varchar', length: 253, nullable: true })
  senderDomain!: string | null;

  @Column({ name: 'bounced_at', type: 'timestamptz', nullable: true })
  bouncedAt!: Date | null;

  @Column({ name: 'complained_at', type: 'timestamptz', nullable: true })
  complainedAt!: Date | null;
}
