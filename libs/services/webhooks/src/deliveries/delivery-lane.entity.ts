import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One delivery lane of an endpoint and its chain of jobs (deliveries/delivery-lanes.ts): only the
 * link numbered `link_seq` may act; `due_at` is when that link runs, null when the lane is idle (no
 * link: nothing pending). Its row lock orders a link's decision to stop against new deliveries.
 */
@Entity({ name: 'lanes' })
export class DeliveryLane {
  @PrimaryColumn({ name: 'endpoint_id', type: 'varchar', length: 40 })
  endpointId!: string;

  @PrimaryColumn({ type: 'smallint' })
  lane!: number;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'link_seq', type: 'int', default: 0 })
  linkSeq!: number;

  @Column({ name: 'due_at', type: 'timestamptz', nullable: true })
  dueAt!: Date | null;
}
