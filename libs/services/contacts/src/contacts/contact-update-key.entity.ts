import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * An internal update applied under a caller's idempotency key (a workflow's UPDATE_CONTACT step run):
 * written in the transaction of the update, so a retried or redelivered call with the same key finds
 * it and applies nothing (`POST /internal/contacts/upsert {idempotencyKey}`).
 */
@Entity({ name: 'contact_update_keys' })
export class ContactUpdateKey {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ name: 'key', type: 'varchar', length: 128 })
  key!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
