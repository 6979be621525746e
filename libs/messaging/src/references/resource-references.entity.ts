import type { ReferringKind, ResourceReference } from '@herald/contracts';
import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * What one resource of another service (a segment, a campaign, a workflow) references among what
 * this service owns, at the newest revision received (`resource.references.changed`). A deleted
 * resource keeps its row with no references, so that an older revision delivered late cannot bring
 * it back. In the schema of each owner that mounts `ReferencesModule`.
 */
@Entity({ name: 'resource_references' })
// containment lookups (`refs @> '[{"kind":"field","key":"data.plan"}]'`): GIN jsonb_path_ops, created by the migration
@Index('resource_references_refs_idx', { synchronize: false })
export class ResourceReferences {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ name: 'resource_kind', type: 'varchar', length: 20 })
  resourceKind!: ReferringKind;

  @PrimaryColumn({ name: 'resource_id', type: 'varchar', length: 60 })
  resourceId!: string;

  /** The publishing service (the envelope's source). */
  @Column({ type: 'varchar', length: 40 })
  source!: string;

  @Column({ name: 'resource_name', type: 'varchar', length: 255 })
  resourceName!: string;

  @Column({ type: 'bigint' })
  revision!: string;

  /** The references this owner keeps (of the kinds it owns). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  refs!: ResourceReference[];

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
