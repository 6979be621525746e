import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type AccountTokenPurpose = 'verify-email' | 'reset-password';

/** A single-use, expiring token sent by email; only its SHA-256 is stored. */
@Entity({ name: 'account_tokens' })
@Index('account_tokens_hash_key', ['tokenHash'], { unique: true })
@Index('account_tokens_user_idx', ['userId', 'purpose'])
export class AccountToken {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'user_id', type: 'varchar', length: 40 })
  userId!: string;

  @Column({ type: 'varchar', length: 20 })
  purpose!: AccountTokenPurpose;

  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
