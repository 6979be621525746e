import type { ReadYourWrites } from '@herald/messaging';
import { invalidInput, type HeraldRuntime } from '@herald/core';
import { SendingCalls, type IntakeAnswer } from '@herald/internal-contracts';
import type { ReferenceDirectory } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTemplateRenderPool } from '@herald/templating';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { LinkSigner } from '../links/link-signer.js';
import type { SendAdmission } from '../admission/send-admission.js';
import { EmailRenderer } from '../render/email-renderer.js';
import type { ContactsClient, RemoteContact } from '../send/contacts-client.js';
import { sendingService } from '../sending.module.js';
import { SendingSettings } from '../sending.settings.js';
import type { DomainsClient } from '../senders/domains-client.js';
import { SenderDomains } from '../senders/sender-domains.js';
import { TemplatesService } from '../templates/templates.service.js';
import { IntakeStore } from './intake.store.js';
import { InternalEmailIntake } from './internal-email-intake.js';

const runtime = { internalJwtSecret: 'x'.repeat(40) } as HeraldRuntime;
const PROJECT = 'prj_intake';

/** A stored email as the intake wrote it. */
interface Row {
  id: string;
  status: string;
  to_email: string;
  subject: string;
  html: string;
  headers: Record<string, string>;
  priority: number;
  origin: string;
  campaign_id: string | null;
  workflow_id: string | null;
  source_key: string;
  contact_id: string;
  test: boolean;
}

/**
 * POST /internal/emails' use case on real PostgreSQL: keys are unique per project for good (also
 * when two identical calls race), a bad item refuses the whole call, suppression and subscription
 * decide what is skipped, and marketing mail is rendered with its headers in the bulk lane.
 */
describe('InternalEmailIntake (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let intake: InternalEmailIntake;
  /** The contacts service's answer to a lookup by address; `gate` holds lookups until released. */
  const directory = new Map<string, RemoteContact>();
  let gate: { arrivals: number; waitFor: number; open: () => void; opened: Promise<void> } | undefined;
  /** What billing admission was asked (category, count), and what it answers: nothing, or a refusal. */
  const admitted: [string, number][] = [];
  let refusal: Error | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(sendingService.schema, db.url, 6).initialize();
    await migrateServiceSchema(ds);
    const settings = Object.assign(new SendingSettings(), { APP_URL: 'https://mail.example.test' });
    const owner = {
      senderDomain: async (_p: string, domain: string) => ({ verified: false, domain }),
    } as unknown as DomainsClient;
    const senders = new SenderDomains(ds, settings, runtime, owner, {
      copyIsCurrent: () => true,
    } as unknown as ReadYourWrites);
    const contacts = {
      findByEmails: async (_p: string, emails: string[]) => {
        if (gate) {
          const g = gate;
          g.arrivals += 1;
          if (g.arrivals >= g.waitFor) g.open();
          await g.opened;
        }
        return emails.map((e) => directory.get(e)).filter((c): c is RemoteContact => c !== undefined);
      },
    } as unknown as ContactsClient;
    const templates = new TemplatesService(ds, senders, {} as ReferenceDirectory);
    const renderer = new EmailRenderer(settings, new LinkSigner(settings, runtime), createTemplateRenderPool(0));
    const admission = {
      admit: async (_p: string, category: string, count: number) => {
        admitted.push([category, count]);
        if (refusal) throw refusal;
      },
    } as unknown as SendAdmission;
    intake = new InternalEmailIntake(ds, templates, senders, contacts, renderer, admission, new IntakeStore());

    await ds.query(
      `INSERT INTO sending.sender_domains (domain_id, project_id, domain, verified, event_at) VALUES ('dom_1', $1, 'brand.test', true, now())`,
      [PROJECT],
    );
    await ds.query(
      `INSERT INTO sending.templates (id, project_id, name, subject, body, from_email, type) VALUES ('tpl_1', $1, 'News', 'News for {{email}}', '<p>Plan {{plan}}</p>', 'news@brand.test', 'marketing')`,
      [PROJECT],
    );
    await ds.query(
      `INSERT INTO sending.templates (id, project_id, name, subject, body, from_email, type, format) VALUES ('tpl_md', $1, 'Notes', 'Notes', $2, 'news@brand.test', 'transactional', 'markdown')`,
      [PROJECT, '# Notes for {{ email }}\n\n**Plan:** {{ plan }}'],
    );
    await ds.query(
      `INSERT INTO sending.suppressions (project_id, email, reason) VALUES ($1, 'bounced@x.test', 'bounce')`,
      [PROJECT],
    );
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const rows = async (keyPrefix: string): Promise<Row[]> =>
    ds.query(`SELECT * FROM sending.emails WHERE project_id = $1 AND source_key LIKE $2 ORDER BY source_key`, [
      PROJECT,
      `${keyPrefix}%`,
    ]);
  const contact = (email: string, subscribed = true, data: Record<string, unknown> = {}) => ({
    id: `ctc_${email.split('@')[0]}`,
    email,
    subscribed,
    data,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  /** An intake call as it reaches the use case: checked by the contract's parser first (either end of the call). */
  const execute = (body: unknown) => {
    const parsed = SendingCalls.calls.intake.parse!(body);
    return parsed.ok ? intake.execute(PROJECT, parsed.value) : Promise.reject(invalidInput(parsed.problems));
  };
  const campaignItem = (key: string, to: string, extra: Record<string, unknown> = {}) => ({
    key,
    to,
    contact: contact(to),
    from: 'news@brand.test',
    subject: 'Hello {{email}}',
    body: '<p>Hi {{name ?? "there"}}, <a href="https://brand.test/offer">offer</a></p>',
    category: 'marketing',
    origin: 'campaign',
    campaignId: 'cmp_1',
    ...extra,
  });

  it('queues a new key and answers a key seen before as duplicate with the first email id, writing nothing new', async () => {
    const first = await execute({ items: [campaignItem('again:1', 'a@x.test')] });
    expect(first.results).toEqual([{ key: 'again:1', status: 'queued', emailId: expect.stringMatching(/^eml_/) }]);
    const second = await execute({
      items: [campaignItem('again:1', 'a@x.test', { subject: 'Changed' }), campaignItem('again:2', 'b@x.test')],
    });
    expect(second.results).toEqual([
      { key: 'again:1', status: 'duplicate', emailId: first.results[0]!.emailId, firstStatus: 'queued' },
      { key: 'again:2', status: 'queued', emailId: expect.stringMatching(/^eml_/) },
    ]);
    const stored = await rows('again:');
    expect(stored.map((r) => [r.source_key, r.subject])).toEqual([
      ['again:1', 'Hello a@x.test'],
      ['again:2', 'Hello b@x.test'],
    ]);
  });

  it('asks billing admission for the new keys of each category, and a refusal writes nothing', async () => {
    admitted.length = 0;
    await execute({ items: [campaignItem('admit:1', 'a1@x.test')] });
    await execute({
      items: [
        campaignItem('admit:1', 'a1@x.test'),
        campaignItem('admit:2', 'a2@x.test'),
        campaignItem('admit:3', 'a3@x.test', { origin: 'workflow', workflowId: 'wfl_1', campaignId: undefined }),
      ],
    });
    expect(admitted).toEqual([
      ['campaign', 1],
      ['workflow', 0],
      ['campaign', 1], // admit:1 was seen before: not counted again
      ['workflow', 1],
    ]);
    refusal = new Error('BILLING_LIMIT_EXCEEDED');
    try {
      await expect(execute({ items: [campaignItem('admit:4', 'a4@x.test')] })).rejects.toBe(refusal);
    } finally {
      refusal = undefined;
    }
    expect((await rows('admit:')).map((r) => r.source_key)).toEqual(['admit:1', 'admit:2', 'admit:3']);
  });

  it('answers the second item of one call with the same key as a duplicate of the first', async () => {
    const answer = await execute({
      items: [campaignItem('twice:1', 'c@x.test'), campaignItem('twice:1', 'c@x.test')],
    });
    expect(answer.results[1]).toEqual({
      key: 'twice:1',
      status: 'duplicate',
      emailId: answer.results[0]!.emailId,
      firstStatus: 'queued',
    });
    expect(await rows('twice:')).toHaveLength(1);
  });

  it('makes one email of two identical calls racing past the check for known keys: the other answers duplicate', async () => {
    directory.set('race@x.test', contact('race@x.test'));
    const item = { ...campaignItem('race:1', 'race@x.test'), contact: undefined };
    // both calls wait in the contacts lookup until both are there: each has found the key new
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    gate = { arrivals: 0, waitFor: 2, open, opened };
    let answers: IntakeAnswer[];
    try {
      answers = await Promise.all([
        execute({ items: [item, campaignItem('race:2', 'r2@x.test')] }),
        execute({ items: [item, campaignItem('race:2', 'r2@x.test')] }),
      ]);
    } finally {
      gate = undefined;
    }
    expect(answers.flatMap((a) => a.results.map((r) => r.status)).sort()).toEqual([
      'duplicate',
      'duplicate',
      'queued',
      'queued',
    ]);
    for (const k of [0, 1]) expect(new Set(answers.map((a) => a.results[k]!.emailId)).size).toBe(1); // both name the one email
    const stored = await rows('race:');
    expect(stored.map((r) => r.source_key)).toEqual(['race:1', 'race:2']);
    expect(stored.find((r) => r.source_key === 'race:1')!.id).toBe(answers[0]!.results[0]!.emailId);
  });

  it('refuses the whole call with a 422 naming items[i].templateId for an unknown template, writing nothing', async () => {
    const call = execute({
      items: [
        campaignItem('bad:1', 'd@x.test'),
        { ...campaignItem('bad:2', 'e@x.test'), subject: undefined, body: undefined, templateId: 'tpl_missing' },
      ],
    });
    await expect(call).rejects.toMatchObject({
      kind: 'invalid',
      details: { errors: [expect.objectContaining({ field: 'items[1].templateId' })] },
    });
    expect(await rows('bad:')).toEqual([]);
  });

  it('refuses a from that is not on a verified domain of the project, naming items[i].from', async () => {
    await expect(
      execute({ items: [campaignItem('unverified:1', 'f@x.test', { from: 'me@elsewhere.test' })] }),
    ).rejects.toMatchObject({ details: { errors: [expect.objectContaining({ field: 'items[0].from' })] } });
    expect(await rows('unverified:')).toEqual([]);
  });

  it('refuses an item missing its category or key with field errors, and a template that fails to render', async () => {
    await expect(execute({ items: [{ ...campaignItem('', 'g@x.test'), category: 'promo' }] })).rejects.toMatchObject({
      details: {
        errors: [
          expect.objectContaining({ field: 'items[0].key' }),
          expect.objectContaining({ field: 'items[0].category' }),
        ],
      },
    });
    await expect(
      execute({ items: [campaignItem('render:1', 'g@x.test', { body: '{% if %}' })] }),
    ).rejects.toMatchObject({ details: { errors: [expect.objectContaining({ field: 'items[0].body' })] } });
  });

  it('skips suppressed addresses, unsubscribed contacts (marketing only) and invalid addresses, with reasons', async () => {
    directory.set('known@x.test', contact('known@x.test', false));
    const answer = await execute({
      items: [
        campaignItem('skip:1', 'bounced@x.test'),
        campaignItem('skip:2', 'u@x.test', { contact: contact('u@x.test', false) }),
        campaignItem('skip:3', 'not an address'),
        { ...campaignItem('skip:4', 'u@x.test', { contact: contact('u@x.test', false) }), category: 'transactional' },
        { ...campaignItem('skip:5', 'known@x.test'), contact: undefined },
        { ...campaignItem('skip:6', 'stranger@x.test'), contact: undefined },
        {
          ...campaignItem('skip:7', 'stranger@x.test'),
          contact: undefined,
          category: 'transactional',
          origin: 'workflow',
        },
      ],
    });
    expect(answer.results.map((r) => [r.status, r.reason])).toEqual([
      ['skipped', 'suppressed'],
      ['skipped', 'unsubscribed'],
      ['skipped', 'invalid_address'],
      ['queued', undefined],
      ['skipped', 'unsubscribed'], // looked up by address: unsubscribed
      ['skipped', 'unsubscribed'], // no contact: no consent to marketing mail
      ['queued', undefined], // transactional mail to an address that is no contact
    ]);
    const stored = await rows('skip:');
    expect(stored.map((r) => r.status)).toEqual([
      'suppressed',
      'skipped',
      'skipped',
      'queued',
      'skipped',
      'skipped',
      'queued',
    ]);
    // a skipped key stays taken: asked again, it is a duplicate that says what the first answer was
    const again = await execute({ items: [campaignItem('skip:1', 'bounced@x.test')] });
    expect(again.results).toEqual([
      { key: 'skip:1', status: 'duplicate', emailId: stored[0]!.id, firstStatus: 'skipped', reason: 'suppressed' },
    ]);
  });

  it("sends a test item whatever the contact's state, rendered with the contact of the address if any, marked test; a suppressed address is still skipped", async () => {
    directory.set('left@x.test', contact('left@x.test', false, { name: 'Lea' }));
    const test = (key: string, to: string) => ({
      ...campaignItem(key, to),
      contact: undefined,
      campaignId: undefined,
      priority: 'normal',
      test: true,
    });
    const answer = await execute({
      items: [
        campaignItem('test:0', 'real@x.test'),
        test('test:1', 'left@x.test'),
        test('test:2', 'designer@agency.test'),
        test('test:3', 'bounced@x.test'),
      ],
    });
    expect(answer.results.map((r) => [r.status, r.reason])).toEqual([
      ['queued', undefined],
      ['queued', undefined],
      ['queued', undefined],
      ['skipped', 'suppressed'],
    ]);
    const [real, left, designer, bounced] = await rows('test:');
    expect(real!.test).toBe(false);
    expect([left!.html, left!.contact_id, left!.test]).toEqual([expect.stringContaining('Hi Lea,'), 'ctc_left', true]);
    expect([designer!.html, designer!.contact_id, designer!.test]).toEqual([
      expect.stringContaining('Hi there,'),
      '',
      true,
    ]);
    expect(designer!.headers['List-Unsubscribe']).toMatch(/^<https:\/\/mail\.example\.test\/unsubscribe\/.+>$/);
    expect([bounced!.status, bounced!.test]).toEqual(['suppressed', true]);
  });

  it('renders marketing mail per contact with one-click List-Unsubscribe and Precedence: bulk, in the bulk lane', async () => {
    const answer = await execute({
      items: [
        campaignItem('render:ok', 'h@x.test', {
          contact: contact('h@x.test', true, { name: 'Hana', plan: 'pro' }),
          data: { name: 'Ignored', extra: 'E' },
          body: '<p>{{name}} {{plan}} {{extra}} <a href="{{unsubscribeUrl}}">unsubscribe</a> <a href="https://brand.test/x">x</a></p>',
        }),
        {
          key: 'render:tpl',
          to: 'h@x.test',
          contact: contact('h@x.test', true, { plan: 'pro' }),
          templateId: 'tpl_1',
          category: 'transactional',
          origin: 'workflow',
          workflowId: 'wfl_1',
          executionId: 'wex_1',
        },
      ],
    });
    expect(answer.results.map((r) => r.status)).toEqual(['queued', 'queued']);
    const [ok, tpl] = await rows('render:');
    expect(ok!.html).toContain('<p>Hana pro E <a href="https://mail.example.test/unsubscribe/');
    expect(ok!.html).toContain('https://mail.example.test/t/click/'); // click tracking
    expect(ok!.headers).toEqual({
      'List-Unsubscribe': expect.stringMatching(/^<https:\/\/mail\.example\.test\/unsubscribe\/.+>$/),
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      Precedence: 'bulk',
    });
    expect([ok!.priority, ok!.origin, ok!.campaign_id, ok!.contact_id]).toEqual([1, 'campaign', 'cmp_1', 'ctc_h']);
    expect(tpl).toMatchObject({ subject: 'News for h@x.test', priority: 0, origin: 'workflow', workflow_id: 'wfl_1' });
    expect(tpl!.headers).toEqual({});
  });

  it("renders each body in the format it travels with: an item's body by the item's format, a template's by the template's", async () => {
    const workflowItem = (key: string, extra: Record<string, unknown>) => ({
      key,
      to: 'm@x.test',
      contact: contact('m@x.test', true, { plan: '**pro**' }),
      category: 'transactional',
      origin: 'workflow',
      ...extra,
    });
    const answer = await execute({
      items: [
        campaignItem('format:item', 'm@x.test', { format: 'markdown', body: '# Hi\n\n[Offer](https://brand.test/o)' }),
        workflowItem('format:template', { templateId: 'tpl_md' }),
        workflowItem('format:override', { templateId: 'tpl_md', body: '# Not a heading' }),
      ],
    });
    expect(answer.results.map((r) => r.status)).toEqual(['queued', 'queued', 'queued']);
    const [item, override, template] = await rows('format:');
    expect(item!.html).toMatch(/^<h1>Hi<\/h1>\n<p><a href="https:\/\/mail\.example\.test\/t\/click\//);
    expect(template!.html).toContain('<h1>Notes for m@x.test</h1>\n<p><strong>Plan:</strong> **pro**</p>');
    expect(override!.html).toMatch(/^# Not a heading/);
  });
});
