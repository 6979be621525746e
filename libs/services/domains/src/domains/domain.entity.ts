import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { RecordCheck } from '../records/dns-records.js';

export type DomainStatus = 'pending' | 'verified';

/**
 * A sender domain of a project: its DKIM key (the private key only sealed), the ownership token,
 * its verification state and what the last check saw. A domain is unique per project.
 */
@Entity({ name: 'domains' })
@Index('domains_project_domain_key', ['projectId', 'domain'], { unique: true })
export class Domain {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  /** Lower-case host name, e.g. `mail.example.com`. */
  @Column({ type: 'varchar', length: 253 })
  domain!: string;

  @Column({ type: 'varchar', length: 12, default: 'pending' })
  status!: DomainStatus;

  /** The value of `_herald.<domain>` is `herald-verification=<token>`. */
  @Column({ name: 'verification_token', type: 'varchar', length: 64 })
  verificationToken!: string;

  @Column({ name: 'dkim_selector', type: 'varchar', length: 63 })
  dkimSelector!: string;

  /** base64 DER SubjectPublicKeyInfo: the `p=` of the DKIM record. */
  @Column({ name: 'dkim_public_key', type: 'text' })
  dkimPublicKey!: string;

  /** `sealSecret(pkcs8 PEM, DKIM_ENCRYPTION_KEY)`: never stored in the clear. */
  @Column({ name: 'dkim_private_key_sealed', type: 'text' })
  dkimPrivateKeySealed!: string;

  /** Per-record result of the last check (API or background), null before the first. */
  @Column({ type: 'jsonb', nullable: true })
  checks!: RecordCheck[] | null;

  @Column({ name: 'last_checked_at', type: 'timestamptz', nullable: true })
  lastCheckedAt!: Date | null;

  @Column({ name: 'verified_at', type: 'timestamptz', nullable: true })
  verifiedAt!: Date | null;

  /**
   * Position of the background check chain: only the check job carrying this number may run and
   * schedule the next one, so a re-run or a duplicate job never forks the chain.
   */
  @Column({ name: 'check_seq', type: 'int', default: 0 })
  checkSeq!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
