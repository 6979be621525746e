import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The segments read model (docs/segments.md, "Read model"): what `@herald/filters` compiles
 * against, under its default names (DEFAULT_FILTER_SQL_SCHEMA), fed through the idempotent inbox by
 * `contact.*`, `event.tracked` and `email.*`. The indexes follow docs/filters.md ("Which indexes
 * serve which operators"); the GIN on `data` is created by the migration.
 */
@Entity({ name: 'segment_contacts' })
@Index('segment_contacts_email', ['projectId', 'email'])
@Index('segment_contacts_created', ['projectId', 'createdAt'])
@Index('segment_contacts_updated', ['projectId', 'updatedAt'])
@Index('segment_contacts_data', { synchronize: false })
export class SegmentContact {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  /** The normalised address (as contacts stores it). */
  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'boolean' })
  subscribed!: boolean;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  data!: Record<string, unknown>;

  /** When contacts created it (the `occurredAt` of `contact.created`). */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** The `occurredAt` of the newest contact event applied: an older one arriving late changes nothing. */
  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * Contacts deleted, so that a `contact.updated` delivered after the `contact.deleted` (another
 * partition's lag, a redelivery) cannot bring a contact back.
 */
@Entity({ name: 'segment_deleted_contacts' })
export class SegmentDeletedContact {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  @Column({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date;
}

/** Tracked events of each contact: names and times (`event.tracked`). */
@Entity({ name: 'segment_contact_events' })
@Index('segment_contact_events_lookup', ['projectId', 'contactId', 'name', 'occurredAt'])
@Index('segment_contact_events_by_name', ['projectId', 'name', 'occurredAt'])
@Index('segment_contact_events_record', ['projectId', 'eventRecordId'], {
  unique: true,
  where: '"event_record_id" IS NOT NULL',
})
export class SegmentContactEvent {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  /** The contacts record id (`evt_…`, `event.tracked`'s `eventRecordId`): the backfill adds an event once. */
  @Column({ name: 'event_record_id', type: 'varchar', length: 40, nullable: true })
  eventRecordId!: string | null;
}

/** Email engagement of each contact: sent, delivered, opened, clicked, bounced, complained (`email.*`). */
@Entity({ name: 'segment_contact_emails' })
@Index('segment_contact_emails_lookup', ['projectId', 'contactId', 'kind', 'occurredAt'])
@Index('segment_contact_emails_by_kind', ['projectId', 'kind', 'occurredAt'])
export class SegmentContactEmail {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'contact_id', type: 'varchar', length: 64 })
  contactId!: string;

  @Column({ type: 'varchar', length: 20 })
  kind!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;
}

/**
 * The types of the project's custom fields (`data.<path>` → string | number | boolean | date), by
 * the contacts rule: the first non-null value seen for a key fixes its type (`inferFieldType` of
 * @herald/contact-data), fed from the data of `contact.created` / `contact.updated`.
 */
@Entity({ name: 'segment_field_types' })
export class SegmentFieldType {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @PrimaryColumn({ type: 'varchar', length: 300 })
  field!: string;

  @Column({ type: 'varchar', length: 10 })
  type!: string;
}
