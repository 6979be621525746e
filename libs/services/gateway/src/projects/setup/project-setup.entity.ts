import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Onboarding facts about a project, built from other services' events. */
@Entity({ name: 'project_setup' })
export class ProjectSetup {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'first_contact_at', type: 'timestamptz', nullable: true })
  firstContactAt!: Date | null;
}
