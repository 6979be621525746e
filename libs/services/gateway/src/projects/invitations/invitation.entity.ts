import type { ProjectRole } from '@herald/contracts';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An invitation of an address without a Herald account to a project: a single-use token (only its
 * SHA-256 is stored; issued when the email goes out), accepted by a signed-in user before it expires.
 */
@Entity({ name: 'project_invitations' })
@Index('project_invitations_pending_key', ['projectId', 'email'], {
  unique: true,
  where: '"accepted_at" IS NULL AND "revoked_at" IS NULL',
})
@Index('project_invitations_token_key', ['tokenHash'], { unique: true })
export class ProjectInvitation {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 10 })
  role!: ProjectRole;

  @Column({ name: 'invited_by', type: 'varchar', length: 40 })
  invitedBy!: string;

  @Column({ name: 'token_hash', type: 'char', length: 64, nullable: true })
  tokenHash!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt!: Date | null;

  @Column({ name: 'accepted_by', type: 'varchar', length: 40, nullable: true })
  acceptedBy!: string | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
