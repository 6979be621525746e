import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An address a project never sends to again: a hard bounce or a complaint. */
@Entity({ name: 'suppressions' })
export class Suppression {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 16 })
  reason!: 'bounce' | 'complaint';

  @Column({ type: 'text', nullable: true })
  detail!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
