import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { InboundAttachment, InboundHeader } from './inbound-content.js';

/**
 * One message Herald's SMTP listener took for a project (docs/inbound.md): who sent it (and the
 * contact of that address, when there is one), to which of the project's addresses, its content,
 * and the email of the project it answers. A message for several projects (a domain verified in
 * each) is one row per project.
 */
@Entity({ name: 'inbound_messages' })
@Index('inbound_messages_project_created', ['projectId', 'createdAt'])
@Index('inbound_messages_project_contact_created', ['projectId', 'contactId', 'createdAt'])
// a message delivered again (the sending server never heard the 250) is kept once
@Index('inbound_messages_project_message_id', ['projectId', 'messageId'], { unique: true })
export class InboundMessage {
  /** `inb_…` */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  /** The contact whose address sent it, when the sender is one of the project's contacts. */
  @Column({ name: 'contact_id', type: 'varchar', length: 40, nullable: true })
  contactId!: string | null;

  /** The sender: the From header's address, else the envelope sender's; null for a null sender. */
  @Column({ name: 'from_email', type: 'varchar', length: 320, nullable: true })
  fromEmail!: string | null;

  @Column({ name: 'from_name', type: 'varchar', length: 200, nullable: true })
  fromName!: string | null;

  /** MAIL FROM as given ('' for the null sender `<>`). */
  @Column({ name: 'envelope_from', type: 'varchar', length: 320 })
  envelopeFrom!: string;

  /** The project's addresses it was delivered to (envelope recipients, normalised). */
  @Column({ type: 'jsonb' })
  recipients!: string[];

  @Column({ type: 'varchar', length: 998, nullable: true })
  subject!: string | null;

  /** The Message-ID header without brackets (null when absent or over 255 characters). */
  @Column({ name: 'message_id', type: 'varchar', length: 255, nullable: true })
  messageId!: string | null;

  @Column({ type: 'text', nullable: true })
  text!: string | null;

  @Column({ type: 'text', nullable: true })
  html!: string | null;

  /** Every header line in order (name in lower case, value unfolded). */
  @Column({ type: 'jsonb' })
  headers!: InboundHeader[];

  /** Each attachment's description, with its content (base64) when it fit INBOUND_MAX_ATTACHMENT_BYTES. */
  @Column({ type: 'jsonb' })
  attachments!: InboundAttachment[];

  /** The project's email it answers (by In-Reply-To / References), and that email's campaign or workflow. */
  @Column({ name: 'in_reply_to_email_id', type: 'varchar', length: 40, nullable: true })
  inReplyToEmailId!: string | null;

  @Column({ name: 'campaign_id', type: 'varchar', length: 60, nullable: true })
  campaignId!: string | null;

  @Column({ name: 'workflow_id', type: 'varchar', length: 60, nullable: true })
  workflowId!: string | null;

  /** Bytes as received. */
  @Column({ type: 'int' })
  size!: number;

  /** When it was received. */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
