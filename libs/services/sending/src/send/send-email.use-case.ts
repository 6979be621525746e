import { emailDomain } from '@herald/contact-data';
import { currentTraceparent, invalidInput, newId, withSpan } from '@herald/core';
import { IdempotentRequests } from '@herald/persistence';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SendAdmission } from '../admission/send-admission.js';
import { SENDING } from '../consumer.js';
import { sendOutcome, type SendOutcome } from '../emails/email-view.js';
import type { RenderContact } from '../render/contact-variables.js';
import { isSuppressedInTestMode, isTestModeEmail } from '../sandbox/sandbox-outcomes.js';
import { writesOf, type Content, type Draft, type PreparedSend } from './prepared-send.js';
import { EmailRenderer, type RenderedEmail } from '../render/email-renderer.js';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';
import { SenderDomains } from '../senders/sender-domains.js';
import type { Template } from '../templates/template.entity.js';
import { TemplatesService } from '../templates/templates.service.js';
import { ContactsClient, type RemoteContact, type RemoteUpsert } from './contacts-client.js';
import { SEND_BATCHING, type SendBatching } from './send-batch.js';
import { SendLookups, type RecipientLookup } from './send-lookups.js';
import { parseSendRequest, SEND_LIMITS, type Mailbox, type SendRequest } from './send-request.js';
import { contactDifference, planRecipients } from './send-recipients.js';
import { SendWrites } from './send-writes.js';
import { SendStore, type NewEmail } from './send.store.js';

export { EMAILS_CHANNEL } from './send.store.js';

/** The contact's timestamps as template variables (contact-variables.ts): the only ones a write's clock changes. */
const TIMESTAMP_VARIABLE = /createdAt|updatedAt/;

/** One recipient's email in the /v1/send answer: the spec's `{contact, email}` plus what became of it. */
export type SentEmailItem = { contact: { id: string; email: string }; email: string } & SendOutcome;

export interface SendResult {
  success: true;
  data: { emails: SentEmailItem[]; timestamp: string };
}

/**
 * POST /v1/send, which never half-writes. First a read-only preflight: the request is validated,
 * each recipient's contact is planned as its upsert will make it (`planRecipients`: contacts' data
 * rules; a new contact unsubscribed unless `subscribed` says otherwise, with an id sending proposes)
 * and its email rendered and size-checked for it; any refusal is the request's 422 with nothing
 * written. Then billing admission, then the writes: every recipient's contact upserted in one call to
 * the contacts service, in order (each re-rendered if the contact written is not the one planned), and every email
 * stored in one transaction, queued for the delivery worker. Unsubscribed contacts get no marketing
 * mail; suppressed addresses get none (each item of the answer says `queued`, or `skipped` with the
 * reason).
 *
 * Concurrent requests share their round trips (group execution, each still answered as if alone):
 * the preflight's reads in SendLookups (one contacts `find` and one suppression query for the
 * requests of a project that wait together), admission and the writes in SendWrites (one admission
 * call, one `upsertMany` and one email insert with its NOTIFY for a batch, each request retried on
 * its own when a shared call fails).
 */
@Injectable()
export class SendEmailUseCase {
  /** The preflight reads and the writes, shared with SendBatchUseCase (its batches join the same ones). */
  readonly lookups: SendLookups;
  readonly writes: SendWrites;
  private readonly idempotency: IdempotentRequests;

  constructor(
    @InjectDataSource(SENDING) db: DataSource,
    @Inject(SENDING_SETTINGS) private readonly settings: SendingSettings,
    private readonly templates: TemplatesService,
    private readonly senders: SenderDomains,
    contacts: ContactsClient,
    private readonly renderer: EmailRenderer,
    admission: SendAdmission,
    @Optional() @Inject(SEND_BATCHING) batching: SendBatching = {},
  ) {
    const store = new SendStore();
    this.idempotency = new IdempotentRequests(db);
    this.lookups = new SendLookups(db, store, contacts, batching.lookups);
    this.writes = new SendWrites(db, store, contacts, admission, batching.writes);
  }

  /** `testMode`: sent with a test key (docs/test-mode.md); its Idempotency-Keys are not a live request's. */
  execute(
    projectId: string,
    body: unknown,
    idempotencyKey: string | undefined,
    requestId?: string,
    testMode = false,
  ): Promise<SendResult> {
    return this.idempotent(projectId, idempotencyKey, testMode ? { testMode, body } : body, () =>
      this.send(projectId, body, requestId, testMode),
    );
  }

  /**
   * `run` under the request's Idempotency-Key (none: just `run`; IdempotentRequests, the rule /v1/track
   * shares): remembered for 24 hours per project with the fingerprint of `request` (what makes two
   * requests the same); a retry with the same key and request gets the first answer, another request
   * with it is 409 IDEMPOTENCY_KEY_REUSED, one while the first runs is 409 IDEMPOTENCY_KEY_IN_USE.
   */
  idempotent<T>(
    projectId: string,
    idempotencyKey: string | undefined,
    request: unknown,
    run: () => Promise<T>,
  ): Promise<T> {
    return idempotencyKey === undefined ? run() : this.idempotency.run(projectId, idempotencyKey, request, run);
  }

  private async send(
    projectId: string,
    body: unknown,
    requestId: string | undefined,
    testKey: boolean,
  ): Promise<SendResult> {
    const parsed = parseSendRequest(body, this.settings.MAX_ATTACHMENT_BYTES);
    if (Array.isArray(parsed)) throw invalidInput(parsed);
    const request = parsed;
    const template = request.template ? await this.templates.find(projectId, request.template) : undefined;
    const content = this.content(request, template);
    await this.senders.assertVerified(projectId, content.from.email, request.from ? 'from' : 'template.from');

    // preflight, read-only: each recipient's contact as its upsert will make it, and its email rendered
    // for it; a refusal here leaves no trace (no contact, email, event, idempotency row or reservation)
    const lookup = await this.lookups.lookup(
      projectId,
      request.to.map((t) => t.email),
      requestId,
    );
    const prepared = await this.prepare(projectId, request, content, lookup, testKey);
    // admission (every recipient is one email of the transactional category, docs/billing.md: refused
    // as a whole when over the cap), then every recipient's contact upserted, in order, and the emails
    // stored (SendWrites: with the writes of concurrent requests)
    const emails = await withSpan('queue emails', { attributes: { 'herald.emails': prepared.drafts.length } }, () =>
      this.writes.write<SentEmailItem[]>({
        projectId,
        requestId,
        ...writesOf([prepared]),
        compose: (written) => this.compose(projectId, prepared, written),
      }),
    );
    return { success: true, data: { emails, timestamp: new Date().toISOString() } };
  }

  /**
   * The preflight of one request after its lookup: each recipient's contact planned and its email
   * rendered for it (throws the request's 422, nothing written). The request's trace is taken here:
   * its emails are written in a batch that may run in another request's context. With a test key
   * (`testKey`) no contact will be written: a recipient that is no contact is planned without an id
   * (rendered like mail to an address that is no contact), an existing one with the request's data.
   */
  async prepare(
    projectId: string,
    request: SendRequest,
    content: Content,
    { found, suppressed }: RecipientLookup,
    testKey = false,
  ): Promise<PreparedSend> {
    const drafts: Draft[] = [];
    const known = new Set(found.map((c) => c.id));
    for (const planned of planRecipients(request, found)) {
      const plan =
        testKey && !known.has(planned.contact.id) ? { ...planned, contact: { ...planned.contact, id: '' } } : planned;
      const emailId = newId('eml');
      drafts.push({ plan, emailId, rendered: await this.render(projectId, request, content, emailId, plan) });
    }
    return { request, content, drafts, suppressed, traceparent: currentTraceparent(), testKey };
  }

  /** Each recipient's email for the contact its upsert wrote, and the answer's item for it. */
  async compose(
    projectId: string,
    { request, content, drafts, suppressed, traceparent, testKey }: PreparedSend,
    upserts: RemoteUpsert[],
  ): Promise<{ emails: NewEmail[]; answer: SentEmailItem[] }> {
    const emails: NewEmail[] = [];
    const answer: SentEmailItem[] = [];
    for (const [i, draft] of drafts.entries()) {
      const upsert = upserts[i]!;
      const rendered = await this.renderWritten(projectId, request, content, draft, upsert);
      const testMode = isTestModeEmail(testKey, upsert.contact.email);
      const email = this.email(
        projectId,
        request,
        content,
        draft.emailId,
        draft.plan.recipient,
        upsert.contact,
        rendered,
        {
          // `suppressed@` of the sandbox is refused as an address of the suppression list is
          suppressed: suppressed.has(upsert.contact.email) || isSuppressedInTestMode(testMode, upsert.contact.email),
          testMode,
        },
      );
      emails.push(traceparent ? { ...email, traceparent } : email);
      answer.push({
        contact: { id: upsert.contact.id, email: upsert.contact.email },
        email: email.id,
        ...sendOutcome(email.status),
      });
    }
    return { emails, answer };
  }

  /**
   * Request fields override the template's (subject, body, from, reply-to). The body's format
   * travels with the body: the request's `type` with the request's body, the template's format
   * with the template's.
   */
  content(request: SendRequest, template: Template | undefined): Content {
    const subject = request.subject ?? template?.subject;
    const body = request.body ?? template?.body;
    const format = request.body !== undefined ? (request.type ?? 'html') : (template?.format ?? 'html');
    const from: Mailbox | undefined =
      request.from ??
      (template?.from
        ? { email: template.from, ...(template.fromName ? { name: template.fromName } : {}) }
        : undefined);
    if (!subject || !body)
      throw invalidInput([
        {
          field: subject ? 'body' : 'subject',
          message: 'subject and body are required unless the template has them',
          code: 'required',
        },
      ]);
    if (!from)
      throw invalidInput([
        { field: 'from', message: 'from is required unless the template has one', code: 'required' },
      ]);
    return {
      subject,
      body,
      format,
      from,
      replyTo: request.reply ?? template?.replyTo ?? undefined,
      type: template?.type ?? 'transactional',
      templateId: template?.id,
    };
  }

  /** One recipient's email rendered for `contact`, refused (422) when the message would pass SEND_LIMITS.message. */
  private async render(
    projectId: string,
    request: SendRequest,
    content: Content,
    emailId: string,
    { contact, transient }: { contact: RenderContact; transient: Record<string, unknown> },
  ): Promise<RenderedEmail> {
    const rendered = await this.renderer.render(
      content,
      { projectId, emailId, contact, transient },
      { subject: 'subject', body: request.template ? 'template' : 'body' },
    );
    const size =
      Buffer.byteLength(rendered.html) +
      Buffer.byteLength(rendered.text) +
      request.attachments.reduce((n, a) => n + a.content.length, 0);
    if (size > SEND_LIMITS.message)
      throw invalidInput([
        {
          field: 'attachments',
          message: `The message would be ${size} bytes; at most ${SEND_LIMITS.message} are allowed`,
          code: 'too_big',
        },
      ]);
    return rendered;
  }

  /**
   * The email for the contact the upsert wrote: the preflight's when that contact renders alike,
   * rendered again when it does not. Another request may have created or changed it between the
   * preflight and the write (another id, subscription or data): its email is rendered for it, and
   * a refusal then is the request's 422 (the contacts written so far stay: they are the other
   * request's too). When only the database's timestamps differ, a re-render that fails (a render
   * near the time limit) leaves the preflight's email, rendered for the same contact.
   */
  private async renderWritten(
    projectId: string,
    request: SendRequest,
    content: Content,
    { plan, emailId, rendered }: Draft,
    upsert: RemoteUpsert,
  ): Promise<RenderedEmail> {
    const difference = contactDifference(plan.contact, upsert.contact);
    if (difference === 'none') return rendered;
    // Liquid cannot list its variables: a template that names neither timestamp cannot show them
    if (difference === 'timestamps' && !TIMESTAMP_VARIABLE.test(content.subject + content.body)) return rendered;
    try {
      return await this.render(projectId, request, content, emailId, upsert);
    } catch (err) {
      if (difference === 'timestamps') return rendered;
      throw err;
    }
  }

  /**
   * The row of one email: queued, unless the address is suppressed or marketing mail meets an
   * unsubscribed contact; of test mode (never relayed) with a test key or to a sandbox address.
   */
  private email(
    projectId: string,
    request: SendRequest,
    content: Content,
    id: string,
    recipient: Mailbox,
    contact: RemoteContact,
    rendered: RenderedEmail,
    { suppressed, testMode }: { suppressed: boolean; testMode: boolean },
  ): NewEmail {
    const skipped = content.type === 'marketing' && !contact.subscribed;
    return {
      id,
      projectId,
      contactId: contact.id,
      toEmail: contact.email,
      toName: recipient.name ?? null,
      fromEmail: content.from.email,
      fromName: content.from.name ?? null,
      replyTo: content.replyTo ?? null,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      headers: { ...request.headers, ...rendered.headers },
      attachments: request.attachments.map((a) => ({
        filename: a.filename,
        content: a.content,
        ...(a.contentType ? { contentType: a.contentType } : {}),
      })),
      templateId: content.templateId ?? null,
      type: content.type,
      origin: 'api',
      priority: 0,
      status: suppressed ? 'suppressed' : skipped ? 'skipped' : 'queued',
      error: suppressed
        ? 'The address is on the suppression list'
        : skipped
          ? 'The contact is unsubscribed from marketing mail'
          : null,
      messageId: `${id}@${emailDomain(content.from.email)}`,
      testMode,
    };
  }
}
