import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Relay notifications already applied (bounce/complaint intake): a repeat is recognised and ignored. */
@Entity({ name: 'delivery_notices' })
export class DeliveryNotice {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  id!: string;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;
}
