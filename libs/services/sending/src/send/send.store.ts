import { jsonParam, queryPrepared, SqlParams, tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { Email } from '../emails/email.entity.js';
import { Suppression } from '../emails/suppression.entity.js';

/** NOTIFY channel that wakes the delivery worker when emails are queued. */
export const EMAILS_CHANNEL = 'herald_sending_emails';
/**
 * The payload of an EMAILS_CHANNEL notification whose emails are all live (none of test mode): a
 * worker without a relay, which claims only test-mode emails, has nothing to claim for it. Any other
 * payload may mean test-mode emails.
 */
export const LIVE_MAIL_ONLY = 'live';

/** The payload that announces these queued emails (LIVE_MAIL_ONLY when none is of test mode). */
const payloadOf = (queued: NewEmail[]): string => (queued.some((e) => e.testMode) ? '' : LIVE_MAIL_ONLY);

/** The columns of an email /v1/send writes (the others take their defaults: not yet attempted, created now). */
export type NewEmail = Pick<
  Email,
  | 'id'
  | 'projectId'
  | 'contactId'
  | 'toEmail'
  | 'toName'
  | 'fromEmail'
  | 'fromName'
  | 'replyTo'
  | 'subject'
  | 'html'
  | 'text'
  | 'headers'
  | 'attachments'
  | 'templateId'
  | 'type'
  | 'origin'
  | 'priority'
  | 'status'
  | 'error'
  | 'messageId'
  | 'testMode'
> &
  Partial<Pick<Email, 'traceparent'>>;

/** Characters of emails (bodies, attachments) one insert statement carries at most (one jsonb parameter). */
export const INSERT_MAX_CHARS = 8 * 1024 * 1024;

/**
 * The SQL of /v1/send's batches, as prepared statements on the pool (outside any transaction): the
 * suppressed addresses among recipients, and emails inserted with the NOTIFY that wakes the
 * delivery worker.
 */
@Injectable()
export class SendStore {
  /** Which of these addresses are on the project's suppression list. */
  async suppressed(db: DataSource, projectId: string, emails: string[]): Promise<Set<string>> {
    const rows = await queryPrepared<{ email: string }>(
      db,
      `SELECT email FROM ${tableName(db, Suppression)} WHERE project_id = $1 AND email = ANY($2::varchar[])`,
      [projectId, emails],
    );
    return new Set(rows.map((r) => r.email));
  }

  /**
   * Inserts the emails in one statement (its own transaction), with one NOTIFY when any is queued. A
   * set too large for one jsonb parameter (past INSERT_MAX_CHARS) is inserted by TypeORM in a
   * transaction, with its NOTIFY, as a request's emails were before batches.
   */
  async insertEmails(db: DataSource, emails: NewEmail[]): Promise<void> {
    if (emails.length === 0) return;
    const queued = emails.filter((e) => e.status === 'queued');
    if (charsOf(emails) > INSERT_MAX_CHARS) {
      await db.transaction(async (m) => {
        await m.getRepository(Email).insert(emails);
        if (queued.length > 0) await m.query(`SELECT pg_notify($1, $2)`, [EMAILS_CHANNEL, payloadOf(queued)]);
      });
      return;
    }
    const { param, values } = new SqlParams();
    const rows = jsonParam(param, emails.map(rowOf));
    const channel = param(EMAILS_CHANNEL, 'text');
    const payload = param(payloadOf(queued), 'text');
    await queryPrepared(
      db,
      `WITH ins AS (
         INSERT INTO ${tableName(db, Email)} (${COLUMNS.join(', ')})
         SELECT ${COLUMNS.join(', ')} FROM jsonb_to_recordset(${rows}) AS e(${RECORD})
         RETURNING status
       )
       SELECT pg_notify(${channel}, ${payload}) FROM (SELECT 1 FROM ins WHERE status = 'queued' LIMIT 1) AS queued`,
      values,
    );
  }
}

/** The emails table's columns /v1/send writes, with their types as the JSON rows carry them. */
const TYPED_COLUMNS: [string, string][] = [
  ['id', 'varchar'],
  ['project_id', 'varchar'],
  ['contact_id', 'varchar'],
  ['to_email', 'varchar'],
  ['to_name', 'varchar'],
  ['from_email', 'varchar'],
  ['from_name', 'varchar'],
  ['reply_to', 'varchar'],
  ['subject', 'varchar'],
  ['html', 'text'],
  ['"text"', 'text'],
  ['headers', 'jsonb'],
  ['attachments', 'jsonb'],
  ['template_id', 'varchar'],
  ['"type"', 'varchar'],
  ['origin', 'varchar'],
  ['priority', 'smallint'],
  ['status', 'varchar'],
  ['error', 'text'],
  ['message_id', 'varchar'],
  ['traceparent', 'varchar'],
  ['test_mode', 'boolean'],
];
const COLUMNS = TYPED_COLUMNS.map(([name]) => name);
const RECORD = TYPED_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ');

function rowOf(e: NewEmail): Record<string, unknown> {
  return {
    id: e.id,
    project_id: e.projectId,
    contact_id: e.contactId,
    to_email: e.toEmail,
    to_name: e.toName,
    from_email: e.fromEmail,
    from_name: e.fromName,
    reply_to: e.replyTo,
    subject: e.subject,
    html: e.html,
    text: e.text,
    headers: e.headers,
    attachments: e.attachments,
    template_id: e.templateId,
    type: e.type,
    origin: e.origin,
    priority: e.priority,
    status: e.status,
    error: e.error,
    message_id: e.messageId,
    traceparent: e.traceparent ?? null,
    test_mode: e.testMode,
  };
}

/** About how many characters the emails' rows take (bodies, subjects and attachments; 1 KB for the rest). */
export function charsOf(emails: NewEmail[]): number {
  let n = 0;
  for (const e of emails)
    n +=
      1024 +
      e.html.length +
      e.text.length +
      e.subject.length +
      e.attachments.reduce((sum, a) => sum + a.content.length + a.filename.length, 0);
  return n;
}
