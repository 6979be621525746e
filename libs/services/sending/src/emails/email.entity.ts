import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { TemplateType } from '../templates/template.entity.js';

/**
 * queued → sending (claimed by a worker, leased) → sent | bounced | failed, and sent → delivered
 * when the relay reports the delivery; suppressed and skipped never leave the database. `handoff_at` is written just before the message's final dot goes to
 * the relay: a recovered email with a hand-off is not sent again.
 */
export type EmailStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'bounced' | 'failed' | 'suppressed' | 'skipped';
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
@Index('emails_project_contact_created', ['projectId', 'contactId', 'createdAt'])
@Index('emails_message_id', ['messageId'])
@Index('emails_due', ['priority', 'nextAttemptAt'], { where: `status = 'queued'` })
@Index('emails_leased', ['leaseUntil'], { where: `status = 'sending'` })
@Index('emails_project_source_key', ['projectId', 'sourceKey'], { unique: true })
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

  /** The delivery lane: 0 normal (/v1/send, workflows, transactional), 1 bulk (campaigns). Lower goes first. */
  @Column({ type: 'smallint', default: 0 })
  priority!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: EmailStatus;

  /** The internal intake's key (`campaign:<id>:<contactId>`, …): unique per project for good. Null for /v1/send. */
  @Column({ name: 'source_key', type: 'varchar', length: 200, nullable: true })
  sourceKey!: string | null;

  @Column({ name: 'campaign_id', type: 'varchar', length: 60, nullable: true })
  campaignId!: string | null;

  @Column({ name: 'workflow_id', type: 'varchar', length: 60, nullable: true })
  workflowId!: string | null;

  @Column({ name: 'execution_id', type: 'varchar', length: 60, nullable: true })
  executionId!: string | null;

  /** A campaign's test send (POST /campaigns/:id/test): sent whatever the contact's subscription, on no ledger. */
  @Column({ type: 'boolean', default: false })
  test!: boolean;

  /**
   * Test mode (docs/test-mode.md): sent with a test key (`sk_test_…`) or to a sandbox address. Never
   * handed to a relay (the delivery worker simulates its outcome), its events marked `testMode`, left
   * out of billing, reputation and analytics totals. Not to be confused with `test`, a campaign's
   * test send, which is real mail to a real tester.
   */
  @Column({ name: 'test_mode', type: 'boolean', default: false })
  testMode!: boolean;

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

  /** W3C trace context of what queued it, when traced: the delivery's SMTP span joins that trace (ADR 0019). */
  @Column({ type: 'varchar', length: 55, nullable: true })
  traceparent!: string | null;

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
    sourceKey: (r.source_key as string | null) ?? null,
    campaignId: (r.campaign_id as string | null) ?? null,
    workflowId: (r.workflow_id as string | null) ?? null,
    executionId: (r.execution_id as string | null) ?? null,
    test: r.test === true,
    testMode: r.test_mode === true,
    attempts: r.attempts as number,
    messageId: r.message_id as string,
    traceparent: (r.traceparent as string | null) ?? null,
  };
}
