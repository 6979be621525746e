import { upsertOutcome } from '@herald/contact-data';
import { DomainError, newId, type HeraldRuntime } from '@herald/core';
import type { ReadYourWrites, ReferenceDirectory } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTemplateRenderPool } from '@herald/templating';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import type { SendAdmission } from '../admission/send-admission.js';
import { LinkSigner } from '../links/link-signer.js';
import { EmailRenderer } from '../render/email-renderer.js';
import { sendingService } from '../sending.module.js';
import { SendingSettings } from '../sending.settings.js';
import type { DomainsClient } from '../senders/domains-client.js';
import { SenderDomains } from '../senders/sender-domains.js';
import { TemplatesService } from '../templates/templates.service.js';
import type { ContactsClient, RecipientUpsert, RemoteContact, RemoteUpsert } from './contacts-client.js';
import { SendBatchUseCase } from './send-batch.use-case.js';
import { SendEmailUseCase } from './send-email.use-case.js';

const runtime = { internalJwtSecret: 'x'.repeat(40) } as HeraldRuntime;
const FROM = 'hello@brand.test';

/**
 * /v1/send/batch on real PostgreSQL (sending's schema), contacts reduced to its rule over a map and
 * admission to a counter: the batch reads and writes as one request (one find, one admission, one
 * upsertMany per 500 recipients, one email insert), and its validation modes.
 */
describe('/v1/send/batch: one request of N items, one round trip of each kind (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let batch: SendBatchUseCase;
  let n = 0;
  let project = '';
  const directory = new Map<string, RemoteContact>();
  let finds: string[][] = [];
  let upserts: string[][] = [];
  let admissions: number[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(sendingService.schema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    const settings = Object.assign(new SendingSettings(), { APP_URL: 'https://mail.example.test' });
    const senders = new SenderDomains(
      ds,
      settings,
      runtime,
      { senderDomain: async (_p: string, domain: string) => ({ verified: false, domain }) } as unknown as DomainsClient,
      { copyIsCurrent: () => true } as unknown as ReadYourWrites,
    );
    const contacts = {
      findByEmails: async (p: string, emails: string[]) => {
        finds.push(emails);
        return emails.map((e) => directory.get(`${p}/${e}`)).filter((c): c is RemoteContact => c !== undefined);
      },
      upsertMany: async (p: string, inputs: RecipientUpsert[]): Promise<RemoteUpsert[]> => {
        if (inputs.length > 500) throw new DomainError('invalid', 'VALIDATION_ERROR', 'at most 500 upserts a call');
        upserts.push(inputs.map((i) => i.email));
        return inputs.map((input) => {
          const before = directory.get(`${p}/${input.email}`);
          const outcome = upsertOutcome(before, input, false);
          const at = new Date().toISOString();
          const contact: RemoteContact = {
            id: before?.id ?? input.idIfNew ?? newId('cnt'),
            email: input.email,
            subscribed: outcome.subscribed,
            data: outcome.data,
            createdAt: before?.createdAt ?? at,
            updatedAt: at,
          };
          directory.set(`${p}/${input.email}`, contact);
          return {
            contact,
            created: !before,
            changedKeys: outcome.changedKeys,
            transient: outcome.transient,
            duplicate: false,
          };
        });
      },
    } as unknown as ContactsClient;
    const admission = { admit: async (_p: string, _c: string, count: number) => void admissions.push(count) };
    const templates = new TemplatesService(ds, senders, {} as ReferenceDirectory);
    const send = new SendEmailUseCase(
      ds,
      settings,
      templates,
      senders,
      contacts,
      new EmailRenderer(settings, new LinkSigner(settings, runtime), createTemplateRenderPool(0)),
      admission as unknown as SendAdmission,
    );
    batch = new SendBatchUseCase(send, templates, senders, settings);
  });
  beforeEach(async () => {
    project = `prj_sendbatch_${++n}`;
    await ds.query(
      `INSERT INTO sending.sender_domains (domain_id, project_id, domain, verified, event_at) VALUES ($1, $2, 'brand.test', true, now())`,
      [`dom_${project}`, project],
    );
    finds = [];
    upserts = [];
    admissions = [];
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const item = (to: string | string[], extra: Record<string, unknown> = {}) => ({
    to,
    from: FROM,
    subject: 'Hi {{email}}',
    body: '<p>{{email}}</p>',
    ...extra,
  });
  const rows = (): Promise<{ to_email: string; created_at: Date }[]> =>
    ds.query(`SELECT to_email, created_at FROM sending.emails WHERE project_id = $1 ORDER BY to_email`, [project]);

  it('sends 100 items with one contacts find, one admission for all their emails, one upsertMany and one email insert', async () => {
    const items = Array.from({ length: 100 }, (_, i) => item(`r${i}@x.test`));
    const answer = await batch.execute(project, items, 'strict', undefined);
    expect(answer.data.items).toHaveLength(100);
    answer.data.items.forEach((a, i) => {
      expect(a.index).toBe(i);
      expect('emails' in a && a.emails[0]!.contact.email).toBe(`r${i}@x.test`);
    });
    expect(finds).toHaveLength(1);
    expect(admissions).toEqual([100]);
    expect(upserts).toHaveLength(1);
    const stored = await rows();
    expect(stored).toHaveLength(100);
    // one statement, one transaction: every row has the transaction's now()
    expect(new Set(stored.map((r) => r.created_at.getTime())).size).toBe(1);
  });

  it('upserts a batch past 500 recipients in order, in calls of at most 500, still admitted once', async () => {
    const items = Array.from({ length: 12 }, (_, i) => item(Array.from({ length: 50 }, (_, k) => `b${i}-${k}@x.test`)));
    const answer = await batch.execute(project, items, 'strict', undefined);
    expect(answer.data.items.every((a) => 'emails' in a && a.emails.length === 50)).toBe(true);
    expect(admissions).toEqual([600]);
    expect(upserts.map((u) => u.length)).toEqual([500, 100]);
    expect(upserts.flat()).toEqual(items.flatMap((i) => i.to));
    expect(finds.map((f) => f.length).sort()).toEqual([100, 500]);
    expect(await rows()).toHaveLength(600);
  });

  it('strict: one invalid item refuses the whole batch with every item error named items[i].field, nothing read for writing nor written', async () => {
    const items = [item('ok@x.test'), item('bad', { subject: '' }), item('ok2@x.test', { template: 'tpl_missing' })];
    const refused = await batch.execute(project, items, 'strict', undefined).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    const fields = (refused as DomainError).details.errors!.map((e) => e.field).sort();
    expect(fields).toEqual(expect.arrayContaining(['items[1].subject', 'items[2].template']));
    expect(fields.every((f) => /^items\[[12]\]/.test(f))).toBe(true);
    expect(admissions).toEqual([]);
    expect(upserts).toEqual([]);
    expect(await rows()).toEqual([]);
  });

  it('permissive: sends the valid items, answers the invalid ones with their errors, admits only the valid emails', async () => {
    const items = [
      item('ok@x.test'),
      item('ok2@x.test', { from: 'hello@unverified.test' }),
      item(['ok3@x.test', 'ok4@x.test']),
    ];
    const answer = await batch.execute(project, items, 'permissive', undefined);
    const [first, second, third] = answer.data.items;
    expect(first).toMatchObject({ index: 0, emails: [{ contact: { email: 'ok@x.test' }, status: 'queued' }] });
    expect(second).toEqual({
      index: 1,
      errors: [expect.objectContaining({ field: 'items[1].from', code: 'domain_not_verified' })],
    });
    expect(third).toMatchObject({ index: 2, emails: [{}, {}] });
    expect(admissions).toEqual([3]);
    expect((await rows()).map((r) => r.to_email)).toEqual(['ok3@x.test', 'ok4@x.test', 'ok@x.test']);
  });

  it('refuses a batch of 101 items, an empty one and a body that is not an array (422 on items)', async () => {
    for (const body of [Array.from({ length: 101 }, () => item('x@x.test')), [], { to: 'x@x.test' }]) {
      const refused = await batch.execute(project, body, 'permissive', undefined).catch((e: unknown) => e);
      expect((refused as DomainError).details.errors![0]!.field).toBe('items');
    }
    expect(admissions).toEqual([]);
  });
});
