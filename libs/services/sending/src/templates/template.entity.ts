import type { BodyFormat } from '@herald/templating';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type TemplateType = 'marketing' | 'transactional';

/** A stored email template: Liquid subject and body (HTML or Markdown) plus sender fields. */
@Entity({ name: 'templates' })
@Index('templates_project_created', ['projectId', 'createdAt'])
export class Template {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'project_id', type: 'varchar', length: 40 })
  projectId!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 998 })
  subject!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'from_email', type: 'varchar', length: 320, nullable: true })
  from!: string | null;

  @Column({ name: 'from_name', type: 'varchar', length: 200, nullable: true })
  fromName!: string | null;

  @Column({ name: 'reply_to', type: 'varchar', length: 320, nullable: true })
  replyTo!: string | null;

  /** Marketing mail is never sent to unsubscribed contacts and carries List-Unsubscribe; transactional mail is. */
  @Column({ type: 'varchar', length: 16, default: 'transactional' })
  type!: TemplateType;

  /** How the body is written: `html`, or `markdown` converted to HTML when an email is rendered. */
  @Column({ type: 'varchar', length: 16, default: 'html' })
  format!: BodyFormat;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
