import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type ApiKeyKind = 'secret' | 'public';

/**
 * A project API key. Only its SHA-256 is stored (a database leak yields no usable key) and a short
 * visible prefix for the dashboard (`sk_3f9a1c2…`, `sk_test_3f9a1c2…`). Rotation revokes the old row.
 * A project has a live pair and a test pair (`test_mode`: `sk_test_…`, `pk_test_…`, docs/test-mode.md).
 */
@Entity({ name: 'api_keys' })
@Index('api_keys_hash_key', ['keyHash'], { unique: true })
@Index('api_keys_project_idx', ['projectId'])
export class ApiKey {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 10 })
  kind!: ApiKeyKind;

  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash!: string;

  @Column({ type: 'varchar', length: 20 })
  prefix!: string;

  /** A test key: its sends never reach a relay (docs/test-mode.md). */
  @Column({ name: 'test_mode', type: 'boolean', default: false })
  testMode!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
