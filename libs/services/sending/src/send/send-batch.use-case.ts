import { emailDomain } from '@herald/contact-data';
import { DomainError, invalidInput, settle, withSpan, type FieldProblem } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';
import { SenderDomains } from '../senders/sender-domains.js';
import type { Template } from '../templates/template.entity.js';
import { TemplatesService } from '../templates/templates.service.js';
import type { RecipientLookup } from './send-lookups.js';
import { parseSendRequest, type SendRequest } from './send-request.js';
import { writesOf, type Content as SendContent, type PreparedSend } from './prepared-send.js';
import { SendEmailUseCase, type SentEmailItem } from './send-email.use-case.js';
import type { NewEmail } from './send.store.js';

/** Items one /v1/send/batch takes at most (Resend's batch limit). */
export const BATCH_MAX_ITEMS = 100;

/** Addresses one preflight lookup takes (SendLookups' FIND_MAX): a batch's are looked up in slices of it. */
const LOOKUP_SLICE = 500;

/**
 * `strict` (the default): any invalid item refuses the whole batch (422 naming every item's errors),
 * nothing written. `permissive`: the valid items are sent, the invalid ones answered with their errors.
 */
export type BatchValidation = 'strict' | 'permissive';

/** One item of the answer, at its index in the request: its emails, or its validation errors. */
export type BatchItemResult = { index: number; emails: SentEmailItem[] } | { index: number; errors: FieldProblem[] };

export interface BatchSendResult {
  success: true;
  data: { items: BatchItemResult[]; timestamp: string };
}

/** An item on its way through the preflight: its request until something refuses it, then its errors. */
interface Item {
  index: number;
  request?: SendRequest;
  content?: SendContent;
  prepared?: PreparedSend;
  errors?: FieldProblem[];
}

/**
 * POST /v1/send/batch: up to 100 `/v1/send` bodies in one request (a JSON array), each item checked
 * and rendered by the same preflight as `/v1/send` (SendEmailUseCase), its errors named
 * `items[<i>].<field>`. The batch reads and writes as one request, not as N: one query for its
 * templates, each sender domain checked once, one lookup of every recipient (in slices of 500
 * addresses, in one batch of SendLookups), then one `SendWrites` request: one admission call for
 * all its emails, its contacts upserted in order (500 a call) and all its emails in one insert.
 * The Idempotency-Key covers the whole batch (with its validation mode).
 */
@Injectable()
export class SendBatchUseCase {
  constructor(
    private readonly send: SendEmailUseCase,
    private readonly templates: TemplatesService,
    private readonly senders: SenderDomains,
    @Inject(SENDING_SETTINGS) private readonly settings: SendingSettings,
  ) {}

  execute(
    projectId: string,
    body: unknown,
    validation: BatchValidation,
    idempotencyKey: string | undefined,
    requestId?: string,
    testMode = false,
  ): Promise<BatchSendResult> {
    const fingerprint = { batch: validation, body, ...(testMode ? { testMode } : {}) };
    return this.send.idempotent(projectId, idempotencyKey, fingerprint, () =>
      this.run(projectId, body, validation, requestId, testMode),
    );
  }

  private async run(
    projectId: string,
    body: unknown,
    validation: BatchValidation,
    requestId: string | undefined,
    testKey: boolean,
  ): Promise<BatchSendResult> {
    const items = this.parse(body);
    await this.checkContent(projectId, items);
    await this.checkSenders(projectId, items);
    await this.prepare(projectId, items, requestId, testKey);
    const refused = items.flatMap((item) => item.errors ?? []);
    if (validation === 'strict' && refused.length > 0)
      throw invalidInput(refused, `Validation failed for ${items.filter((i) => i.errors).length} item(s) of the batch`);

    const sending = items.filter((i): i is Item & { prepared: PreparedSend } => i.prepared !== undefined);
    const answers = new Map<number, BatchItemResult>();
    if (sending.length > 0) {
      const written = await withSpan(
        'queue emails',
        { attributes: { 'herald.emails': sending.reduce((n, i) => n + i.prepared.drafts.length, 0) } },
        () =>
          this.send.writes.write<BatchItemResult[]>({
            projectId,
            requestId,
            ...writesOf(sending.map((i) => i.prepared)),
            compose: async (upserts) => {
              const emails: NewEmail[] = [];
              const answer: BatchItemResult[] = [];
              let at = 0;
              for (const { index, prepared } of sending) {
                const own = upserts.slice(at, (at += prepared.drafts.length));
                // a contact changed by another request meanwhile is rendered again: a refusal then is the item's
                const composed = await settle(() => this.send.compose(projectId, prepared, own));
                if (composed.status === 'fulfilled') {
                  emails.push(...composed.value.emails);
                  answer.push({ index, emails: composed.value.answer });
                } else {
                  const errors = itemErrors(index, composed.reason);
                  if (validation === 'strict' || !errors) throw errors ? invalidInput(errors) : composed.reason;
                  answer.push({ index, errors });
                }
              }
              return { emails, answer };
            },
          }),
      );
      for (const a of written) answers.set(a.index, a);
    }
    return {
      success: true,
      data: {
        items: items.map((i) => answers.get(i.index) ?? { index: i.index, errors: i.errors ?? [] }),
        timestamp: new Date().toISOString(),
      },
    };
  }

  /** The body: an array of 1 to BATCH_MAX_ITEMS `/v1/send` bodies, each validated as `/v1/send` validates one. */
  private parse(body: unknown): Item[] {
    if (!Array.isArray(body))
      throw invalidInput([
        { field: 'items', message: 'The body must be a JSON array of /v1/send bodies', code: 'invalid_type' },
      ]);
    if (body.length === 0 || body.length > BATCH_MAX_ITEMS)
      throw invalidInput([
        {
          field: 'items',
          message: `A batch holds 1 to ${BATCH_MAX_ITEMS} items; this one has ${body.length}`,
          code: body.length === 0 ? 'too_small' : 'too_big',
        },
      ]);
    return body.map((item, index) => {
      const parsed = parseSendRequest(item, this.settings.MAX_ATTACHMENT_BYTES);
      return Array.isArray(parsed) ? { index, errors: prefixed(index, parsed) } : { index, request: parsed };
    });
  }

  /** Each item's content, its template read with the others' in one query. */
  private async checkContent(projectId: string, items: Item[]): Promise<void> {
    const ids = [...new Set(items.flatMap((i) => (i.request?.template ? [i.request.template] : [])))];
    const templates = new Map<string, Template>((await this.templates.findMany(projectId, ids)).map((t) => [t.id, t]));
    for (const item of live(items)) {
      const id = item.request.template;
      const template = id === undefined ? undefined : templates.get(id);
      if (id !== undefined && !template) {
        fail(item, [{ field: 'template', message: `Template ${id} not found`, code: 'not_found' }]);
        continue;
      }
      const content = settleSync(() => this.send.content(item.request, template));
      if (content instanceof Error) refuse(item, content);
      else item.content = content;
    }
  }

  /** The sender of each item on a verified domain of the project: each domain asked once. */
  private async checkSenders(projectId: string, items: Item[]): Promise<void> {
    const byDomain = new Map<string, Promise<PromiseSettledResult<void>>>();
    await Promise.all(
      live(items).map(async (item) => {
        const from = item.content!.from.email;
        const domain = (emailDomain(from) ?? from).toLowerCase();
        let check = byDomain.get(domain);
        if (!check) byDomain.set(domain, (check = settle(() => this.senders.assertVerified(projectId, from, 'from'))));
        const verdict = await check;
        if (verdict.status === 'fulfilled') return;
        const field = item.request.from ? 'from' : 'template.from';
        const reason = verdict.reason as unknown;
        const errors = itemErrors(item.index, reason, field);
        if (!errors) throw reason;
        item.errors = errors;
      }),
    );
  }

  /** Every recipient looked up at once (one batch of SendLookups), then each item planned and rendered. */
  private async prepare(
    projectId: string,
    items: Item[],
    requestId: string | undefined,
    testKey: boolean,
  ): Promise<void> {
    const checked = live(items);
    const addresses = [...new Set(checked.flatMap((i) => i.request.to.map((t) => t.email)))];
    const slices: string[][] = [];
    for (let at = 0; at < addresses.length; at += LOOKUP_SLICE) slices.push(addresses.slice(at, at + LOOKUP_SLICE));
    const lookups = await Promise.all(slices.map((s) => this.send.lookups.lookup(projectId, s, requestId)));
    const lookup: RecipientLookup = {
      found: lookups.flatMap((l) => l.found),
      suppressed: new Set(lookups.flatMap((l) => [...l.suppressed])),
    };
    for (const item of checked) {
      const prepared = await settle(() => this.send.prepare(projectId, item.request, item.content!, lookup, testKey));
      if (prepared.status === 'fulfilled') item.prepared = prepared.value;
      else refuse(item, prepared.reason);
    }
  }
}

/** The items still valid, with their request. */
const live = (items: Item[]) => items.filter((i): i is Item & { request: SendRequest } => !i.errors && !!i.request);

const prefixed = (index: number, errors: FieldProblem[]): FieldProblem[] =>
  errors.map((e) => ({
    ...e,
    field: `items[${index}]${e.field === '' || e.field.startsWith('[') ? '' : '.'}${e.field}`,
  }));

const fail = (item: Item, errors: FieldProblem[]) => (item.errors = prefixed(item.index, errors));

/** The item's errors when `err` is a validation refusal (422 with field errors); any other error is the request's. */
function itemErrors(index: number, err: unknown, field?: string): FieldProblem[] | undefined {
  if (!(err instanceof DomainError) || err.kind !== 'invalid') return undefined;
  const errors = err.details.errors ?? [{ field: field ?? '', message: err.message, code: 'invalid' }];
  return prefixed(
    index,
    errors.map((e) => (field ? { ...e, field } : e)),
  );
}

function refuse(item: Item, err: unknown): void {
  const errors = itemErrors(item.index, err);
  if (!errors) throw err;
  item.errors = errors;
}

function settleSync<T>(f: () => T): T | Error {
  try {
    return f();
  } catch (err) {
    if (err instanceof Error) return err;
    throw err;
  }
}

/** The `X-Batch-Validation` header: `strict` when absent (Resend's default), else `strict` or `permissive`. */
export function batchValidationOf(value: string | string[] | undefined): BatchValidation {
  if (value === undefined) return 'strict';
  const mode = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (mode === 'strict' || mode === 'permissive') return mode;
  throw invalidInput([
    {
      field: 'x-batch-validation',
      message: 'x-batch-validation must be strict or permissive',
      code: 'invalid_enum_value',
    },
  ]);
}
