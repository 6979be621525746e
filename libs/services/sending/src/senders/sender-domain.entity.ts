import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Read model of the domains service's verified domains (domain.verified / domain.unverified). */
@Entity({ name: 'sender_domains' })
@Index('sender_domains_project_domain', ['projectId', 'domain'])
// the projects a domain is verified in (inbound mail's recipients, docs/inbound.md)
@Index('sender_domains_domain', ['domain'])
export class SenderDomain {
  @PrimaryColumn({ name: 'domain_id', type: 'varchar', length: 40 })
  domainId!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 253 })
  domain!: string;

  @Column({ type: 'boolean' })
  verified!: boolean;

  @Column({ name: 'dkim_selector', type: 'varchar', length: 63, nullable: true })
  dkimSelector!: string | null;

  /** Sealed with DKIM_ENCRYPTION_KEY, exactly as published. */
  @Column({ name: 'dkim_private_key_sealed', type: 'text', nullable: true })
  dkimPrivateKeySealed!: string | null;

  /** occurredAt of the last applied event: an older event never overwrites a newer state. */
  @Column({ name: 'event_at', type: 'timestamptz' })
  eventAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
