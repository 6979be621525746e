import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The narrow copy of each contact's email and subscription that contact-list totals are counted
 * on: a `count(*)` over a million contacts reads a third of the bytes it would read in
 * `contacts` (no ids, data, timestamps). Written only by triggers on `contacts` (see the
 * migration `ContactSearch…`), so every write path keeps it in step; the application never
 * writes it.
 */
@Entity({ name: 'contact_search' })
export class ContactSearchEntry {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40, primaryKeyConstraintName: 'contact_search_pkey' })
  projectId!: string;

  @PrimaryColumn({ type: 'varchar', length: 320, primaryKeyConstraintName: 'contact_search_pkey' })
  email!: string;

  @Column({ type: 'boolean' })
  subscribed!: boolean;
}
