import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A project: everything else in Herald belongs to one. */
@Entity({ name: 'projects' })
export class Project {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** A disabled project's keys answer 403 PROJECT_DISABLED. */
  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
