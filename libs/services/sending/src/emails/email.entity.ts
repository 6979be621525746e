import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { TemplateType } from '../templates/template.entity.js';

/**
 * queued → sending (claimed by a worker, leased) → sent | bounced | failed; suppressed and skipped
 * never leave the database. `handoff_at` is written just before the message's final dot goes to
 * the relay: a recovered email with a hand-off is not sent again.
 */
export type EmailStatus = 'queued' | 'sending' | 'sent' | 'bounced' | 'failed' | 'suppressed' | 'skipped';
export type EmailOrigin = 'api' | 'campaign' | 'workflow';

export interface StoredAttachment {
  filename: string;
  contentType?: string;
  /** base64 */
  content: string;
}

/** One accepted email to one recipient, rendered, and its delivery record. */
@Entity({ name: 'emails' })
@Index('emails_project_created', ['projectId', 'createdAt'])
@Index('emails_message_id', ['messageId'])
@Index('emails_due', ['priority', 'nextAttemptAt'], { where: `status = 'queued'` })
@Index('emails_leased', ['leaseUntil'], { where: `status = 'sending'` })
export class Email {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ name: 'contact_id', type: 'varchar', length: 40 })
  contactId!: string;

  @Column({ name: 'to_email', type: 'varchar', length: 320 })
  toEmail!: string;

  @Column({ name: 'to_name', type: 'varchar', length: 200, nullable: true })
  toName!: string | null;

  @Column({ name: 'from_email', type: 'varchar', length: 320 })
  fromEmail!: string;

  @Column({ name: 'from_name', type: 'varchar', length: 200, nullable: true })
  fromName!: string | null;

  @Column({ name: 'reply_to', type: 'varchar', length: 320, nullable: true })
  replyTo!: string | null;

  @Column({ type: 'varchar', length: 998 })
  subject!: string;

  @Column({ type: 'text' })
  html!: string;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  headers!: Record<string, string>;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  attachments!: StoredAttachment[];

  @Column({ name: 'template_id', type: 'varchar', length: 40, nullable: true })
  templateId!: string | null;

  @Column({ type: 'varchar', length: 16 })
  type!: TemplateType;

  @Column({ type: 'varchar', length: 16, default: 'api' })
  origin!: EmailOrigin;

  /** 0 transactional API mail, 1 campaign and workflow mail: lower goes first. */
  @Column({ type: 'smallint', default: 0 })
  priority!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: EmailStatus;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil!: Date | null;

  @Column({ name: 'handoff_at', type: 'timestamptz', nullable: true })
  handoffAt!: Date | null;

  /** The Message-ID header (without brackets), fixed at acceptance so every attempt carries the same one. */
  @Column({ name: 'message_id', type: 'varchar', length: 255 })
  messageId!: string;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  @Column({ name: 'opened_at', type: 'timestamptz', nullable: true })
  openedAt!: Date | null;

  @Column({ name: 'clicked_at', type: 'timestamptz', nullable: true })
  clickedAt!: Date | null;

  @Column({ name: 'bounced_at', type: 'timestamptz', nullable: true })
  bouncedAt!: Date | null;

  @Column({ name: 'complained_at', type: 'timestamptz', nullable: true })
  complainedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** Maps a raw `RETURNING *` row of the emails table. */
export function emailFromRow(r: Record<string, unknown>): Partial<Email> {
  return {
    id: r.id as string,
    projectId: r.project_id as string,
    contactId: r.contact_id as string,
    toEmail: r.to_email as string,
    toName: r.to_name as string | null,
    fromEmail: r.from_email as string,
    fromName: r.from_name as string | null,
    replyTo: r.reply_to as string | null,
    subject: r.subject as string,
    html: r.html as string,
    text: r.text as string,
    headers: r.headers as Record<string, string>,
    attachments: r.attachments as Email['attachments'],
    templateId: r.template_id as string | null,
    type: r.type as Email['type'],
    origin: r.origin as Email['origin'],
    priority: r.priority as number,
    status: r.status as Email['status'],
    attempts: r.attempts as number,
    messageId: r.message_id as string,
  };
}
