import { MicroBatcher, settle, type MicroBatcherOptions } from '@herald/core';
import { jsonParam, queryPrepared, SqlParams, tableName } from '@herald/persistence';
import type { DataSource } from 'typeorm';
import type { SendAdmission } from '../admission/send-admission.js';
import { Email } from '../emails/email.entity.js';
import type { ContactsClient, RecipientUpsert, RemoteUpsert } from './contacts-client.js';
import { byProject, callFor, chunksOf, currentPositions, requestIdOf, type BatchedRequest } from './send-batch.js';

/** NOTIFY channel that wakes the delivery worker when emails are queued. */
export const EMAILS_CHANNEL = 'herald_sending_emails';

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
>;

/** The writes of one /v1/send whose preflight passed. */
export interface SendWrite<A> extends BatchedRequest {
  /** Emails the request sends, all of the transactional category (docs/billing.md): what admission reserves. */
  count: number;
  /** Its recipients' contact upserts, in order. */
  upserts: RecipientUpsert[];
  /** Its emails and answer for the contacts the upserts wrote (throws the request's own refusal). */
  compose(written: RemoteUpsert[]): Promise<{ emails: NewEmail[]; answer: A }>;
}

/** Upserts one contacts call takes at most (UpsertContactsRequest). */
const UPSERT_MAX = 500;
/** Characters of emails (bodies and attachments) one insert statement carries at most; a larger request is inserted on its own. */
const INSERT_MAX_CHARS = 8 * 1024 * 1024;

interface Composed {
  index: number;
  emails: NewEmail[];
  answer: unknown;
}

/**
 * The writes of /v1/send with group commit (`MicroBatcher`): the requests whose preflight passed
 * while earlier writes were in flight are written together, each answered exactly as if it had
 * been written alone.
 * 1. Admission, asked once per request after it joined the batch (never from an earlier answer):
 *    the requests of a project in one call for all their emails; when that is refused, each is asked
 *    on its own, in order, so each gets its own answer and a capped category reserves exactly what
 *    the requests admitted one by one would. A refused request writes nothing.
 * 2. The contacts of every admitted request of a project upserted in one contacts `upsertMany` (up to
 *    500 upserts, in request order, one transaction). The call is all or nothing: when it fails, each
 *    request's upserts are sent again on their own, so one request's error is never another's.
 *    Each request records the positions the call wrote as its own (read-your-writes).
 * 3. Each request's emails composed for the contacts written (a refusal there is the request's own).
 * 4. Every email of the batch inserted in one statement (one transaction) with one NOTIFY for the
 *    delivery worker; if that fails, each request's emails are inserted on their own.
 */
export class SendWrites {
  private readonly batcher: MicroBatcher<SendWrite<unknown>, unknown>;
  private readonly table: string;

  constructor(
    private readonly db: DataSource,
    private readonly contacts: Pick<ContactsClient, 'upsertMany'>,
    private readonly admission: Pick<SendAdmission, 'admit'>,
    options: MicroBatcherOptions = { maxBatch: 100, maxConcurrent: 4 },
  ) {
    this.batcher = new MicroBatcher((batch) => this.run(batch), options);
    this.table = tableName(db, Email);
  }

  /** Writes the request (with the current request's positions) and answers what its `compose` answered. */
  write<A>(request: Omit<SendWrite<A>, 'positions'>): Promise<A> {
    return this.batcher.submit({ ...request, positions: currentPositions() }) as Promise<A>;
  }

  private async run(batch: SendWrite<unknown>[]): Promise<PromiseSettledResult<unknown>[]> {
    const results: PromiseSettledResult<unknown>[] = new Array(batch.length);
    const composed: Composed[] = [];
    const failed = (index: number, reason: unknown) => (results[index] = { status: 'rejected', reason });
    await Promise.all(
      [...byProject(batch)].map(async ([projectId, group]) => {
        const admitted = await this.admit(
          projectId,
          group.map(({ item }) => item),
        );
        const writing = group.filter(({ index }, k) => {
          const verdict = admitted[k]!;
          if (verdict.status === 'rejected') failed(index, verdict.reason);
          return verdict.status === 'fulfilled';
        });
        for (const chunk of chunksOf(writing, ({ item }) => item.upserts.length, UPSERT_MAX)) {
          const written = await this.upsert(
            projectId,
            chunk.map(({ item }) => item),
          );
          await Promise.all(
            chunk.map(async ({ item, index }, k) => {
              const upserts = written[k]!;
              if (upserts.status === 'rejected') return failed(index, upserts.reason);
              const outcome = await settle(() => item.compose(upserts.value));
              if (outcome.status === 'rejected') failed(index, outcome.reason);
              else composed.push({ index, ...outcome.value });
            }),
          );
        }
      }),
    );
    for (const { entry, outcome } of await this.insert(composed))
      results[entry.index] = outcome.status === 'fulfilled' ? { status: 'fulfilled', value: entry.answer } : outcome;
    return results;
  }

  /** Admission for each request of one project (see the class): one call for all, else one each, in order. */
  private async admit(projectId: string, requests: SendWrite<unknown>[]): Promise<PromiseSettledResult<void>[]> {
    const one = (r: SendWrite<unknown>) =>
      settle(() =>
        callFor(projectId, [r], () => this.admission.admit(projectId, 'transactional', r.count, r.requestId)),
      );
    if (requests.length > 1) {
      const total = requests.reduce((n, r) => n + r.count, 0);
      const together = await settle(() =>
        callFor(projectId, requests, () =>
          this.admission.admit(projectId, 'transactional', total, requestIdOf(requests)),
        ),
      );
      if (together.status === 'fulfilled') return requests.map(() => together);
    }
    const verdicts: PromiseSettledResult<void>[] = [];
    for (const r of requests) verdicts.push(await one(r));
    return verdicts;
  }

  /** The upserts of requests of one project (UPSERT_MAX in all at most): one call, else one per request. */
  private async upsert(
    projectId: string,
    requests: SendWrite<unknown>[],
  ): Promise<PromiseSettledResult<RemoteUpsert[]>[]> {
    const one = (r: SendWrite<unknown>) =>
      settle(() => callFor(projectId, [r], () => this.contacts.upsertMany(projectId, r.upserts, r.requestId)));
    if (requests.length === 1) return [await one(requests[0]!)];
    const together = await settle(() =>
      callFor(projectId, requests, () =>
        this.contacts.upsertMany(
          projectId,
          requests.flatMap((r) => r.upserts),
          requestIdOf(requests),
        ),
      ),
    );
    if (together.status === 'fulfilled') {
      let at = 0;
      return requests.map((r) => {
        const own = together.value.slice(at, (at += r.upserts.length));
        return { status: 'fulfilled', value: own };
      });
    }
    const answers: PromiseSettledResult<RemoteUpsert[]>[] = [];
    for (const r of requests) answers.push(await one(r));
    return answers;
  }

  /** Inserts the composed requests' emails: together (up to INSERT_MAX_CHARS a statement), else each on its own. */
  private async insert(composed: Composed[]): Promise<{ entry: Composed; outcome: PromiseSettledResult<void> }[]> {
    const out: { entry: Composed; outcome: PromiseSettledResult<void> }[] = [];
    for (const chunk of chunksOf(composed, (c) => charsOf(c.emails), INSERT_MAX_CHARS)) {
      const together = await settle(() => this.insertEmails(chunk.flatMap((c) => c.emails)));
      if (together.status === 'fulfilled' || chunk.length === 1) {
        for (const entry of chunk) out.push({ entry, outcome: together });
        continue;
      }
      for (const entry of chunk) out.push({ entry, outcome: await settle(() => this.insertEmails(entry.emails)) });
    }
    return out;
  }

  /**
   * One statement (its own transaction), and one NOTIFY when any is queued. A request too large for
   * one JSON parameter is inserted as before jsonb: by TypeORM, in a transaction.
   */
  private async insertEmails(emails: NewEmail[]): Promise<void> {
    if (emails.length === 0) return;
    if (charsOf(emails) > INSERT_MAX_CHARS) {
      await this.db.transaction(async (m) => {
        await m.getRepository(Email).insert(emails);
        if (emails.some((e) => e.status === 'queued')) await m.query(`SELECT pg_notify($1, '')`, [EMAILS_CHANNEL]);
      });
      return;
    }
    const { param, values } = new SqlParams();
    const rows = jsonParam(param, emails.map(rowOf));
    const channel = param(EMAILS_CHANNEL, 'text');
    await queryPrepared(
      this.db,
      `WITH ins AS (
         INSERT INTO ${this.table} (${COLUMNS.join(', ')})
         SELECT ${COLUMNS.join(', ')} FROM jsonb_to_recordset(${rows}) AS e(${RECORD})
         RETURNING status
       )
       SELECT pg_notify(${channel}, '') FROM (SELECT 1 FROM ins WHERE status = 'queued' LIMIT 1) AS queued`,
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
  };
}

/** About how many characters the emails' rows take (bodies, subjects and attachments; 1 KB for the rest). */
function charsOf(emails: NewEmail[]): number {
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
