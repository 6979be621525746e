import type { ProjectRole } from '@herald/contracts';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A user's role in a project: OWNER and ADMIN manage members, keys and settings; MEMBER uses the project. */
@Entity({ name: 'memberships' })
@Index('memberships_user_idx', ['userId'])
export class Membership {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 40 })
  userId!: string;

  @Column({ type: 'varchar', length: 10 })
  role!: ProjectRole;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
