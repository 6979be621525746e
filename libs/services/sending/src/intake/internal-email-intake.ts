import { emailDomain, isValidEmail, normaliseEmail } from '@herald/contact-data';
import { DomainError, invalidInput, newId, traceparentFor } from '@herald/core';
import type { BodyFormat } from '@herald/templating';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import { Email, type EmailStatus } from '../emails/email.entity.js';
import type { RenderContact } from '../render/contact-variables.js';
import { EmailRenderer } from '../render/email-renderer.js';
import { SendAdmission } from '../admission/send-admission.js';
import { isSandboxAddress, isSuppressedInTestMode } from '../sandbox/sandbox-outcomes.js';
import { ContactsClient } from '../send/contacts-client.js';
import { EMAILS_CHANNEL } from '../send/send-email.use-case.js';
import { SenderDomains } from '../senders/sender-domains.js';
import type { Template } from '../templates/template.entity.js';
import { TemplatesService } from '../templates/templates.service.js';
import {
  INTAKE_LIMITS,
  type IntakeAnswer,
  type IntakeItem,
  type IntakeRequest,
  type IntakeResult,
  type IntakeSkipReason,
} from '@herald/internal-contracts';
import { IntakeStore, type StoredEmail } from './intake.store.js';
import { skipReasonOf } from './skip-reason.js';

/** Stored `error` of an email that is never sent, and the reason it stands for. */
const SKIPPED: Record<IntakeSkipReason, { status: EmailStatus; error: string }> = {
  unsubscribed: { status: 'skipped', error: 'The contact is unsubscribed from marketing mail' },
  suppressed: { status: 'suppressed', error: 'The address is on the suppression list' },
  invalid_address: { status: 'skipped', error: 'The recipient address is not a valid email address' },
};
const reasonOf = (status: string, error: string | null): IntakeSkipReason | undefined => {
  if (status === 'suppressed') return 'suppressed';
  if (status !== 'skipped') return undefined;
  return error === SKIPPED.invalid_address.error ? 'invalid_address' : 'unsubscribed';
};

const PRIORITY = { normal: 0, bulk: 1 } as const;

/** An item's content once its template is applied: the Liquid sources and the envelope. */
interface Content {
  subject: string;
  body: string;
  /** The item's format with the item's body, the template's with the template's. */
  format: BodyFormat;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  template?: Template;
}

/**
 * POST /internal/emails: campaigns and workflows hand sending the emails they want sent, each
 * under a key that is unique per project for good. Keys seen before answer `duplicate` with the
 * first email's id, also when two identical calls race (the unique `(project_id, source_key)`
 * index decides; the loser reads the winner's row). Every other item is validated (template,
 * verified sender domain, rendering: one bad item refuses the whole call), checked against the
 * suppression list and, for marketing mail, the contact's subscription, rendered like /v1/send
 * (contact variables, data, subscription links, click and open tracking; marketing mail gets
 * one-click List-Unsubscribe and Precedence: bulk), and written in one transaction, queued in the
 * lane the item asks for (campaigns: bulk, claimed only when no normal mail is due).
 */
@Injectable()
export class InternalEmailIntake {
  constructor(
    @InjectDataSource(SENDING) private readonly db: DataSource,
    private readonly templates: TemplatesService,
    private readonly senders: SenderDomains,
    private readonly contacts: ContactsClient,
    private readonly renderer: EmailRenderer,
    private readonly admission: SendAdmission,
    private readonly store: IntakeStore,
  ) {}

  /** `request`: checked against the contract (`SendingCalls.intake`: its parser normalised the items). */
  async execute(projectId: string, request: IntakeRequest, requestId?: string): Promise<IntakeAnswer> {
    const { items } = request;

    const seen = await this.store.stored(
      this.db.manager,
      projectId,
      items.map((i) => i.key),
    );
    // the first item of each key not seen before writes; the others of that key are duplicates of it
    const writers = new Map<string, number>();
    items.forEach((item, i) => {
      if (!seen.has(item.key) && !writers.has(item.key)) writers.set(item.key, i);
    });
    const fresh = [...writers.values()];
    // billing caps and a suspended sender (docs/billing.md) refuse the call before anything is
    // rendered or written; keys seen before are not counted again, nor sandbox addresses (test
    // mode, docs/test-mode.md: never relayed, never billed)
    for (const origin of ['campaign', 'workflow'] as const) {
      const count = fresh.filter((i) => items[i]!.origin === origin && !isSandboxAddress(items[i]!.to)).length;
      await this.admission.admit(projectId, origin, count, requestId);
    }

    const contents = await this.contents(projectId, items, fresh);
    const addresses = new Map<number, string | null>(
      fresh.map((i) => [i, isValidEmail(items[i]!.to) ? normaliseEmail(items[i]!.to) : null]),
    );
    const valid = [...new Set([...addresses.values()].filter((a): a is string => a !== null))];
    const suppressed = await this.store.suppressed(this.db.manager, projectId, valid);
    const lookups = fresh.filter((i) => !items[i]!.contact && addresses.get(i));
    const known = new Map(
      (await this.contacts.findByEmails(projectId, [...new Set(lookups.map((i) => addresses.get(i)!))], requestId)).map(
        (c) => [c.email, c],
      ),
    );

    const rows: Email[] = [];
    for (const i of fresh) {
      const item = items[i]!;
      const to = addresses.get(i) ?? null;
      const contact = item.contact ? snapshot(item.contact) : to ? known.get(to) : undefined;
      // a sandbox address is of test mode whatever the caller: `suppressed@` is skipped as suppressed
      const listed = to !== null && (suppressed.has(to) || isSuppressedInTestMode(isSandboxAddress(to), to));
      const skip = skipReasonOf(item, to, listed, contact);
      rows.push(await this.row(projectId, i, item, contents.get(i)!, to, contact, skip));
      // rendering is CPU work: let delivery and other requests run between emails
      await new Promise((resolve) => setImmediate(resolve));
    }

    const written = await this.db.transaction(async (m) => {
      // one key order for every call: two calls sharing keys wait on each other instead of deadlocking
      const sorted = [...rows].sort((a, b) => (a.sourceKey! < b.sourceKey! ? -1 : a.sourceKey! > b.sourceKey! ? 1 : 0));
      const inserted = await this.store.insertNew(m, sorted);
      const lost = rows.filter((r) => !inserted.has(r.sourceKey!)).map((r) => r.sourceKey!);
      // keys another call wrote meanwhile: its row is committed by now (the insert waited for it)
      const theirs = await this.store.stored(m, projectId, lost);
      if (rows.some((r) => inserted.has(r.sourceKey!) && r.status === 'queued'))
        await this.store.notify(m, EMAILS_CHANNEL);
      return { inserted, theirs };
    });

    const byKey = new Map<string, StoredEmail>(seen);
    for (const [key, s] of written.theirs) byKey.set(key, s);
    for (const r of rows)
      if (written.inserted.has(r.sourceKey!)) byKey.set(r.sourceKey!, { id: r.id, status: r.status, error: r.error });
    return {
      results: items.map((item, i): IntakeResult => {
        const stored = byKey.get(item.key)!;
        const reason = reasonOf(stored.status, stored.error);
        if (writers.get(item.key) === i && written.inserted.has(item.key))
          return reason
            ? { key: item.key, status: 'skipped', emailId: stored.id, reason }
            : { key: item.key, status: 'queued', emailId: stored.id };
        return {
          key: item.key,
          status: 'duplicate',
          emailId: stored.id,
          firstStatus: reason ? 'skipped' : 'queued',
          ...(reason ? { reason } : {}),
        };
      }),
    };
  }

  /** Each new item's template applied and its sender checked; a bad item refuses the call (422 on `items[i].<field>`). */
  private async contents(projectId: string, items: IntakeItem[], fresh: number[]): Promise<Map<number, Content>> {
    const templates = new Map<string, Template | null>();
    const domains = new Map<string, boolean>();
    const out = new Map<number, Content>();
    for (const i of fresh) {
      const item = items[i]!;
      let template: Template | undefined;
      if (item.templateId) {
        if (!templates.has(item.templateId))
          templates.set(item.templateId, await this.template(projectId, item.templateId));
        template = templates.get(item.templateId) ?? undefined;
        if (!template)
          throw invalidInput([
            {
              field: `items[${i}].templateId`,
              message: `Template ${item.templateId} does not exist in this project`,
              code: 'not_found',
            },
          ]);
      }
      const subject = item.subject ?? template?.subject;
      const body = item.body ?? template?.body;
      const format = item.body !== undefined ? (item.format ?? 'html') : (template?.format ?? 'html');
      const from = item.from ?? template?.from ?? undefined;
      if (!subject || !body || !from) {
        const field = !subject ? 'subject' : !body ? 'body' : 'from';
        throw invalidInput([
          {
            field: `items[${i}].${field}`,
            message: `${field} is required unless the template has one`,
            code: 'required',
          },
        ]);
      }
      const domain = emailDomain(from) ?? from;
      if (!domains.has(domain)) {
        await this.senders.assertVerified(projectId, from, `items[${i}].from`);
        domains.set(domain, true);
      }
      out.set(i, {
        subject,
        body,
        format,
        from,
        fromName: item.fromName ?? (item.from ? null : (template?.fromName ?? null)),
        replyTo: item.replyTo ?? template?.replyTo ?? null,
        ...(template ? { template } : {}),
      });
    }
    return out;
  }

  private async template(projectId: string, id: string): Promise<Template | null> {
    try {
      return await this.templates.find(projectId, id);
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') return null;
      throw err;
    }
  }

  private async row(
    projectId: string,
    i: number,
    item: IntakeItem,
    content: Content,
    to: string | null,
    contact: RenderContact | undefined,
    skip: IntakeSkipReason | undefined,
  ): Promise<Email> {
    const id = newId('eml');
    let subject = content.subject.slice(0, INTAKE_LIMITS.subject);
    let html = '';
    let text = '';
    let headers: Record<string, string> = {};
    if (!skip) {
      const target = contact ?? noContact(to!);
      // extra variables of the caller; the contact's own fields and data win
      const transient = Object.fromEntries(Object.entries(item.data ?? {}).filter(([k]) => !(k in target.data)));
      const fieldOf = (f: 'subject' | 'body') =>
        item[f] === undefined && item.templateId ? `items[${i}].templateId` : `items[${i}].${f}`;
      const rendered = await this.renderer.render(
        { subject: content.subject, body: content.body, format: content.format, type: item.category },
        { projectId, emailId: id, contact: target, transient },
        { subject: fieldOf('subject'), body: fieldOf('body') },
      );
      ({ subject, html, text } = rendered);
      headers = item.category === 'marketing' ? { ...rendered.headers, Precedence: 'bulk' } : rendered.headers;
    }
    return this.db.getRepository(Email).create({
      id,
      projectId,
      contactId: contact?.id ?? '',
      toEmail: (to ?? item.to).slice(0, INTAKE_LIMITS.address),
      toName: null,
      fromEmail: content.from,
      fromName: content.fromName,
      replyTo: content.replyTo,
      subject,
      html,
      text,
      headers,
      attachments: [],
      templateId: content.template?.id ?? null,
      type: item.category,
      origin: item.origin,
      priority: PRIORITY[item.priority],
      status: skip ? SKIPPED[skip].status : 'queued',
      error: skip ? SKIPPED[skip].error : null,
      sourceKey: item.key,
      campaignId: item.campaignId ?? null,
      workflowId: item.workflowId ?? null,
      executionId: item.executionId ?? null,
      test: item.test === true,
      // a sandbox address (docs/test-mode.md): simulated by the delivery worker, never relayed
      testMode: to !== null && isSandboxAddress(to),
      messageId: `${id}@${emailDomain(content.from)}`,
      // the delivery's SMTP span joins the caller's trace, or the item's own when it is another one
      traceparent: traceparentFor(item.traceparent) ?? null,
    });
  }
}

/** A caller's snapshot as the renderer takes it (its locale lives in data, like a stored contact's). */
function snapshot(c: NonNullable<IntakeItem['contact']>): RenderContact {
  return {
    id: c.id,
    email: c.email,
    subscribed: c.subscribed,
    createdAt: c.createdAt ?? '',
    updatedAt: c.updatedAt ?? '',
    data: c.locale !== undefined && c.data.locale === undefined ? { ...c.data, locale: c.locale } : c.data,
  };
}

/** The recipient of transactional mail that is no contact of the project: rendered with the address only. */
const noContact = (email: string): RenderContact => ({
  id: '',
  email,
  subscribed: false,
  createdAt: '',
  updatedAt: '',
  data: {},
});
